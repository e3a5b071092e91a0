variable "commit_sha" {
  type = string
}

resource "mintlify_agent_job" "docs" {
  prompt   = "Document the v2 agent endpoints"
  triggers = { commit = var.commit_sha }
}

# A follow-up instruction to the same job: its pull request gets the new
# changes. A new commit sends the message again.
resource "mintlify_agent_job_message" "changelog" {
  job_id   = mintlify_agent_job.docs.id
  prompt   = "Also add a changelog entry for these endpoints"
  triggers = { commit = var.commit_sha }

  timeouts {
    create = "30m"
  }
}

output "pr" {
  value = mintlify_agent_job_message.changelog.pr_link
}
