# Page views and searches of the last 30 days, a point a day: past days are
# kept in the analytics cache and never read again.
data "mintlify_analytics_daily" "last_30_days" {
  days    = 30
  metrics = ["views", "searches"]
}

# A week of feedback and assistant conversations, by UTC day of each event.
data "mintlify_analytics_daily" "launch_week" {
  date_from       = "2026-10-05"
  date_to         = "2026-10-12"
  metrics         = ["feedback", "conversations"]
  settling_window = "3d" # late events keep arriving for three days
  max_requests    = 10
}

output "views_per_day" {
  value = { for p in data.mintlify_analytics_daily.last_30_days.points : p.date => p.views == null ? null : p.views.total }
}

output "still_missing" {
  value = data.mintlify_analytics_daily.last_30_days.missing
}
