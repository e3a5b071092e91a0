# `make demo` applies this against the fake API on loopback. The provider
# reads MINTLIFY_API_KEY, MINTLIFY_PROJECT_ID and MINTLIFY_BASE_URL from the
# environment, so the same file runs against the real API too.
terraform {
  required_providers {
    mintlify = {
      source = "mintlify/mintlify"
    }
  }
}

provider "mintlify" {}

resource "mintlify_agent_job" "demo" {
  prompt = "Add a quickstart page for the Terraform provider"

  timeouts {
    create = "5m"
  }
}

data "mintlify_unique_visitors" "last_month" {
  date_from = "2026-10-01"
  date_to   = "2026-11-01"
}

locals {
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
  value = join("\n", [for row in slice(local.ranked, 0, min(10, length(local.ranked))) : format("  %-26s %8d visitors (%d human, %d AI)", row.path, row.total, row.human, row.ai)])
}

output "totals_text" {
  value = format("%d unique visitors (%d human, %d AI; the total counts each visitor once)", local.totals.total, local.totals.human, local.totals.ai)
}
