# The pages with the most feedback, and how many readers found them helpful.
data "mintlify_feedback_by_page" "top" {
  date_from   = "2026-10-01"
  max_results = 20
}

output "pages" {
  value = [for p in data.mintlify_feedback_by_page.top.pages : "${p.path}: ${p.thumbs_up} up, ${p.thumbs_down} down, ${p.code} on code"]
}
