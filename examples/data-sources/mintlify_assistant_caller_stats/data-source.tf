# Where the assistant's questions came from in October.
data "mintlify_assistant_caller_stats" "october" {
  date_from = "2026-10-01"
  date_to   = "2026-11-01"
}

output "share_from_api" {
  value = data.mintlify_assistant_caller_stats.october.total == 0 ? 0 : data.mintlify_assistant_caller_stats.october.api / data.mintlify_assistant_caller_stats.october.total
}
