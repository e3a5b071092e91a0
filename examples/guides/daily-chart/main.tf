terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1"
    }
  }
}

# MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID come from the environment. Past
# days are kept in the analytics cache (cache_dir by default; cache_url for
# a fleet of runners): a plan after the first fill reads only new days.
provider "mintlify" {}

# The last 30 days, ending yesterday (UTC). The first plans fill the
# history at most max_requests (default 20) at a time, newest days first;
# the days not read yet are listed in `missing`.
data "mintlify_analytics_daily" "docs" {
  days    = 30
  metrics = ["views", "visitors", "searches"]
}

locals {
  points  = data.mintlify_analytics_daily.docs.points
  metrics = data.mintlify_analytics_daily.docs.metrics
  colors  = { views = "#0d9373", visitors = "#3b82f6", searches = "#f59e0b" }

  # Each metric's daily total, null while a day is missing: views and
  # visitors are objects (human, ai, total), searches a number. A day's
  # visitors are that day's uniques: never add them up.
  totals = { for m in local.metrics : m => [for p in local.points : try(p[m].total, p[m])] }

  # The chart's geometry: a panel per metric, scaled to its own largest
  # day, a point per day.
  width  = 720
  left   = 64
  right  = 24
  plot   = 70 # the height of a panel's line
  step   = (local.width - local.left - local.right) / max(1, length(local.points) - 1)
  maxima = { for m in local.metrics : m => max(1, [for v in local.totals[m] : v if v != null]...) }
  coords = { for m in local.metrics : m => [for d, v in local.totals[m] :
    v == null ? null : format("%.1f,%.1f", local.left + d * local.step, local.plot - local.plot * v / local.maxima[m])
  ] }

  panels = [for i, m in local.metrics : {
    name  = m
    color = local.colors[m]
    top   = 48 + i * 110
    max   = local.maxima[m]
    # Settled days as one line; the days that may still grow (partial:
    # today, and the days within settling_window) dashed after it.
    settled = join(" ", [for d, c in local.coords[m] : c if c != null && !local.points[d].partial])
    partial = join(" ", [for d, c in local.coords[m] : c if c != null && (local.points[d].partial || try(local.points[d + 1].partial, false))])
  }]
}

# terraform output -raw chart > chart.svg
output "chart" {
  value = templatefile("${path.module}/chart.svg.tftpl", {
    width   = local.width
    height  = 48 + length(local.panels) * 110 + 24
    left    = local.left
    right   = local.right
    plot    = local.plot
    panels  = local.panels
    first   = local.points[0].date
    last    = local.points[length(local.points) - 1].date
    missing = length(data.mintlify_analytics_daily.docs.missing)
  })
}

# The same points as a Grafana panel: a time series over the Infinity data
# source's inline JSON (Dashboard > Add > Import, or paste into a panel's
# JSON model).
output "grafana_panel" {
  value = jsonencode({
    type       = "timeseries"
    title      = "Docs analytics, day by day"
    datasource = { type = "yesoreyeram-infinity-datasource" }
    targets = [{
      refId  = "A"
      type   = "json"
      source = "inline"
      format = "timeseries"
      data = jsonencode([for d, p in local.points : merge(
        { time = "${p.date}T00:00:00Z", partial = p.partial },
        { for m in local.metrics : m => local.totals[m][d] },
      )])
      columns = concat([{ selector = "time", text = "time", type = "timestamp" }],
      [for m in local.metrics : { selector = m, text = m, type = "number" }])
    }]
  })
}
