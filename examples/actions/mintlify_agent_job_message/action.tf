terraform {
  required_version = ">= 1.14"
}

# Send a follow-up to a job started earlier (by a resource, an action or
# the dashboard), and wait for the agent's new round of work.
# Needs Terraform 1.14 or later.
variable "docs_job_id" {
  type = string
}

action "mintlify_agent_job_message" "follow_up" {
  config {
    job_id  = var.docs_job_id
    prompt  = "Also add a changelog entry"
    timeout = "20m"
  }
}

# terraform apply -invoke=action.mintlify_agent_job_message.follow_up -var docs_job_id=...
