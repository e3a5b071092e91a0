# Read a deployment started elsewhere (the dashboard, a Git push, another
# workspace) by its status id: every field, the log included.
variable "status_id" {
  type = string
}

data "mintlify_deployment_status" "latest" {
  status_id = var.status_id
}

output "deployment" {
  value = {
    status  = data.mintlify_deployment_status.latest.status
    summary = data.mintlify_deployment_status.latest.summary
    commit  = data.mintlify_deployment_status.latest.commit.sha
    ended   = data.mintlify_deployment_status.latest.ended_at
  }
}

output "last_log_lines" {
  value = slice(
    data.mintlify_deployment_status.latest.logs,
    max(length(data.mintlify_deployment_status.latest.logs) - 5, 0),
    length(data.mintlify_deployment_status.latest.logs),
  )
}
