terraform {
  required_version = ">= 1.14"
}

# Run the agent on every release, without a resource in state: the action
# runs after terraform_data.release is created or updated (a new commit).
# Needs Terraform 1.14 or later.
variable "commit_sha" {
  type = string
}

action "mintlify_agent_job" "docs" {
  config {
    prompt              = "Update the docs for commit ${var.commit_sha}"
    wait_for_completion = true
    timeout             = "30m"
  }
}

resource "terraform_data" "release" {
  input = var.commit_sha

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.mintlify_agent_job.docs]
    }
  }
}

# Or on demand, from CI: terraform apply -invoke=action.mintlify_agent_job.docs
