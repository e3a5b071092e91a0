# A static copy of the docs for each release: a new export runs exactly when
# the release changes (and never by itself otherwise).
variable "release" {
  type        = string
  description = "The release being archived, for example v2.4.0."
}

resource "mintlify_static_export" "release" {
  domain   = "docs.example.com" # a bare hostname: no https://, no path
  version  = var.release
  triggers = { release = var.release }

  timeouts {
    create = "45m"
  }
}

output "pages_exported" {
  value = mintlify_static_export.release.page_count
}

# Only some pages, without waiting: apply returns as soon as the export is
# queued; later refreshes record its progress.
resource "mintlify_static_export" "handbook" {
  domain              = "acme.mintlify.app"
  paths               = ["index", "guides/getting-started", "api-reference/introduction"]
  wait_for_completion = false
}
