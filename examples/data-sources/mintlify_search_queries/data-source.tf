# What readers searched for last week, most searched first, and the terms
# whose results nobody clicked: pages to write.
data "mintlify_search_queries" "last_week" {
  date_from   = "2026-10-25"
  date_to     = "2026-11-01"
  max_results = 200
}

output "total_searches" {
  value = data.mintlify_search_queries.last_week.total_searches
}

output "unanswered_searches" {
  value = [for s in data.mintlify_search_queries.last_week.searches : s.query if s.top_clicked_page == null]
}
