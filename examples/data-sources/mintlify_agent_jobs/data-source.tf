# The project's failed agent jobs of November, newest first, however they
# were started: a dashboard of what needs a second look.
data "mintlify_agent_jobs" "failed" {
  statuses       = ["failed"]
  created_after  = "2026-11-01"
  created_before = "2026-12-01"
}

output "failed_jobs" {
  value = { for j in data.mintlify_agent_jobs.failed.jobs : j.id => "${j.title} (${j.created_at})" }
}

# The ten newest jobs, whatever their status: one request.
data "mintlify_agent_jobs" "latest" {
  max_results = 10
}

output "open_pull_requests" {
  value = [for j in data.mintlify_agent_jobs.latest.jobs : j.pr_link if j.pr_link != null && j.status == "completed"]
}
