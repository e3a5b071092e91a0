# Ask the agent to update the docs; apply waits until the job finishes and
# exposes the pull request it opened.
resource "mintlify_agent_job" "release_notes" {
  prompt = "Document the v2 agent endpoints and add them to the API reference navigation"

  timeouts {
    create = "45m"
  }
}

output "release_notes_pr" {
  # null when the agent had nothing to change
  value = mintlify_agent_job.release_notes.pr_link
}
