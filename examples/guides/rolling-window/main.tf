terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1"
    }
  }
}

# Whole days end at 00:00 UTC, and yesterday's numbers change little, so
# answers can be reused for hours.
provider "mintlify" {
  cache_ttl = "6h"
}

locals {
  # plantimestamp() is when the plan was made (UTC): known at plan, and the
  # same in the apply of that plan. Formatted as a date, it changes once a
  # day, and so does the query.
  today    = formatdate("YYYY-MM-DD", plantimestamp())
  week_ago = formatdate("YYYY-MM-DD", timeadd(plantimestamp(), "-168h"))

  # The first days of this month and of the month before.
  this_month = formatdate("YYYY-MM-01", plantimestamp())
  last_month = formatdate("YYYY-MM-01", timeadd("${local.this_month}T00:00:00Z", "-24h"))
}

# The last 7 whole days: date_to is exclusive, so today, still counting,
# is left out.
data "mintlify_unique_visitors" "last_7_days" {
  date_from = local.week_ago
  date_to   = local.today
}

# The last calendar month: the query changes once a month.
data "mintlify_page_views" "last_month" {
  date_from = local.last_month
  date_to   = local.this_month
}

output "visitors_last_7_days" {
  value = "${data.mintlify_unique_visitors.last_7_days.totals.total} unique visitors from ${local.week_ago} to ${local.today} (exclusive)"
}

output "views_last_month" {
  value = "${data.mintlify_page_views.last_month.totals.total} page views from ${local.last_month} to ${local.this_month} (exclusive)"
}
