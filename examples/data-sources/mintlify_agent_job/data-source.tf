# Gate a pipeline on a job started elsewhere (the dashboard, another
# pipeline): its id comes from a variable, or from mintlify_agent_jobs.
variable "docs_job_id" {
  type        = string
  description = "The agent job to wait on, for example from the dashboard."
}

data "mintlify_agent_job" "docs" {
  id = var.docs_job_id
}

output "docs_pr" {
  value = data.mintlify_agent_job.docs.pr_link

  precondition {
    condition     = data.mintlify_agent_job.docs.status == "completed"
    error_message = "The docs job is ${data.mintlify_agent_job.docs.status}, not completed yet."
  }
}
