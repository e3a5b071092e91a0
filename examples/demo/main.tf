# `make demo` applies this against the fake API on loopback. The provider
# reads MINTLIFY_API_KEY, MINTLIFY_PROJECT_ID and MINTLIFY_BASE_URL from the
# environment, so the same file runs against the real API too.
terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1"
    }
  }
}

provider "mintlify" {}

variable "commit_sha" {
  type        = string
  description = "The commit the docs are updated for; a new one runs a new job (make demo passes HEAD)."
  default     = "demo"
}

resource "mintlify_agent_job" "demo" {
  prompt   = "Add a quickstart page for the Terraform provider, as of commit ${var.commit_sha}"
  triggers = { commit = var.commit_sha }

  timeouts {
    create = "5m"
  }
}

data "mintlify_unique_visitors" "last_month" {
  date_from = "2026-10-01"
  date_to   = "2026-11-01"
}

data "mintlify_page_views" "last_month" {
  date_from = "2026-10-01"
  date_to   = "2026-11-01"
}

locals {
  views    = { for row in data.mintlify_page_views.last_month.views : row.path => row.total }
  rows     = data.mintlify_unique_visitors.last_month.visitors
  by_total = { for row in local.rows : format("%012d %s", row.total, row.path) => row }
  ranked   = [for key in reverse(sort(keys(local.by_total))) : local.by_total[key]]
  totals   = data.mintlify_unique_visitors.last_month.totals
}

output "job_status" {
  value = mintlify_agent_job.demo.status
}

output "pr_link" {
  value = mintlify_agent_job.demo.pr_link
}

output "totals" {
  value = data.mintlify_unique_visitors.last_month.totals
}

output "path_count" {
  value = length(local.rows)
}

output "top_paths" {
  value = join("\n", [for row in slice(local.ranked, 0, min(10, length(local.ranked))) : format("  %-26s %8d visitors (%d human, %d AI) %9d views", row.path, row.total, row.human, row.ai, lookup(local.views, row.path, 0))])
}

output "views_text" {
  value = format("%d page views (%d human, %d AI)", data.mintlify_page_views.last_month.totals.total, data.mintlify_page_views.last_month.totals.human, data.mintlify_page_views.last_month.totals.ai)
}

output "commit" {
  value = mintlify_agent_job.demo.triggers["commit"]
}

output "totals_text" {
  value = format("%d unique visitors (%d human, %d AI; the total counts each visitor once)", local.totals.total, local.totals.human, local.totals.ai)
}
