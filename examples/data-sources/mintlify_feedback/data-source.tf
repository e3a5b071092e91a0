# Open page-level feedback of the last month, with the readers' comments.
data "mintlify_feedback" "open" {
  date_from = "2026-10-01"
  source    = "contextual"
  statuses  = ["pending", "in_progress"]
}

output "unhelpful_pages" {
  value = distinct([for f in data.mintlify_feedback.open.feedback : f.path if f.helpful == false])
}

output "comments" {
  value = [for f in data.mintlify_feedback.open.feedback : "${f.path}: ${f.comment}" if f.comment != null]
}
