# Unique visitors for October 2026 (date_to is exclusive).
data "mintlify_unique_visitors" "october" {
  date_from = "2026-10-01"
  date_to   = "2026-11-01"
}

output "october_totals" {
  value = data.mintlify_unique_visitors.october.totals
}

# The 20 most visited paths. The API does not document the order of its
# rows, so read them all (max_results would keep the first rows in the
# API's order, not the most visited) and rank them here.
locals {
  by_total = { for row in data.mintlify_unique_visitors.october.visitors : format("%012d %s", row.total, row.path) => row }
  ranked   = [for key in reverse(sort(keys(local.by_total))) : local.by_total[key]]
}

output "top_paths" {
  value = [for row in slice(local.ranked, 0, min(20, length(local.ranked))) : "${row.path}: ${row.total} (${row.ai} AI)"]
}

# A quick look at a few rows costs one request instead of ceil(rows / 250).
data "mintlify_unique_visitors" "sample" {
  max_results = 10
}

# Totals only: one request whatever the site's size, and no rows in state.
data "mintlify_unique_visitors" "totals" {
  date_from   = "2026-10-01"
  date_to     = "2026-11-01"
  max_results = 0
}

output "october_visitors" {
  value = data.mintlify_unique_visitors.totals.totals.total
}
