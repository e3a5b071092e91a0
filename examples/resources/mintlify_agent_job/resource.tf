# Ask the agent to update the docs for each release: a new job runs exactly
# when the commit changes (and never by itself otherwise).
variable "commit_sha" {
  type        = string
  description = "The commit being released, for example $GITHUB_SHA."
}

resource "mintlify_agent_job" "release_notes" {
  prompt   = "Document the changes in commit ${var.commit_sha} and update the changelog"
  triggers = { commit = var.commit_sha }

  timeouts {
    create = "45m"
  }
}

output "release_notes_pr" {
  # null when the agent had nothing to change
  value = mintlify_agent_job.release_notes.pr_link
}

# Fire and forget: apply returns as soon as the job exists; later refreshes
# record its status and pull request.
resource "mintlify_agent_job" "nightly_tidy" {
  prompt              = "Fix broken links and typos"
  wait_for_completion = false
}
