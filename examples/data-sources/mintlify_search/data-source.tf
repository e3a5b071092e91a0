# A smoke test of the live docs, run by every plan and apply: readers who
# search for "install" must find the quickstart. Inside a check block a
# failed assertion (or read) is a warning, not a failed run.
check "quickstart_is_found" {
  data "mintlify_search" "install" {
    query     = "install the CLI"
    page_size = 5
  }

  assert {
    condition     = contains(data.mintlify_search.install.paths, "/quickstart")
    error_message = "Searching \"install the CLI\" finds ${jsonencode(data.mintlify_search.install.paths)}, not /quickstart."
  }
}

# Results of another site, narrowed to a version and to what staff may see.
data "mintlify_search" "v2_auth" {
  domain          = "acme-internal"
  query           = "rotate an API key"
  score_threshold = 0.5
  version         = "v2"
  groups          = ["staff"]
}

output "auth_pages" {
  value = [for r in data.mintlify_search.v2_auth.results : "${r.path}: ${lookup(r.metadata, "title", r.path)}"]
}
