# jobs.tfquery.hcl, beside the configuration's provider block. Run
#   terraform query                                  to list the jobs
#   terraform query -generate-config-out=jobs.tf     to write import blocks
# (Terraform 1.14 or later).

# Every job of the provider's project that finished, this year.
list "mintlify_agent_job" "finished" {
  provider = mintlify

  config {
    statuses      = ["completed", "archived"]
    created_after = "2026-01-01"
  }
}

# The jobs of another project, at most 500 of them.
list "mintlify_agent_job" "website" {
  provider = mintlify
  limit    = 500

  config {
    project_id = "website-docs"
  }
}
