# Page views (events, not visitors) in October, and the pages AI traffic
# reads most.
data "mintlify_page_views" "october" {
  date_from = "2026-10-01"
  date_to   = "2026-11-01"
}

locals {
  by_ai = { for row in data.mintlify_page_views.october.views : format("%012d %s", row.ai, row.path) => row }
}

output "views" {
  value = data.mintlify_page_views.october.totals
}

output "ai_favourites" {
  value = [for key in slice(reverse(sort(keys(local.by_ai))), 0, min(10, length(local.by_ai))) : local.by_ai[key].path]
}
