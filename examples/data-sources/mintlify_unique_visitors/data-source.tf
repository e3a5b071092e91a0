# Unique visitors for October 2026 (date_to is exclusive).
data "mintlify_unique_visitors" "october" {
  date_from = "2026-10-01"
  date_to   = "2026-11-01"
}

output "october_totals" {
  value = data.mintlify_unique_visitors.october.totals
}

# The 20 most visited paths. Rows arrive in the API's order, which it does
# not document, so sort them here. max_results caps rows and requests.
data "mintlify_unique_visitors" "sample" {
  date_from   = "2026-10-01"
  date_to     = "2026-11-01"
  max_results = 1000
}

locals {
  by_total = { for row in data.mintlify_unique_visitors.sample.visitors : format("%012d %s", row.total, row.path) => row }
  top_20   = [for key in reverse(sort(keys(local.by_total))) : local.by_total[key]]
}

output "top_paths" {
  value = [for row in slice(local.top_20, 0, min(20, length(local.top_20))) : "${row.path}: ${row.total} (${row.ai} AI)"]
}
