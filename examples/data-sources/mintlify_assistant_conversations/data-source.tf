# Questions the AI assistant could not answer from the docs last week.
data "mintlify_assistant_conversations" "last_week" {
  date_from = "2026-10-25"
  date_to   = "2026-11-01"
}

output "unanswered" {
  value = [for c in data.mintlify_assistant_conversations.last_week.conversations : c.query if c.resolution_status == "unanswered"]
}
