terraform {
  # Actions and their destroy-time triggers need Terraform 1.14 or later.
  required_version = ">= 1.14"

  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1"
    }
  }
}

# The services this configuration runs. Taking one out of the set destroys
# its infrastructure, and the agent documents its removal.
variable "running" {
  type    = set(string)
  default = ["payments", "search"]
}

locals {
  # Every service the docs cover, running or retired. The action is keyed
  # by this set, not by var.running: a service taken out of var.running
  # must still have its action when its infrastructure is destroyed.
  documented = toset(["payments", "search", "ledger"])
}

action "mintlify_agent_job" "document_removal" {
  for_each = local.documented

  config {
    prompt  = "The ${each.key} service has been shut down. Remove its guides from the navigation, mark its API reference as deprecated, and add a changelog entry saying what replaces it."
    timeout = "45m"
  }
}

# Stands for the service's infrastructure: a module, a cluster, a queue.
resource "terraform_data" "service" {
  for_each = var.running
  input    = each.key

  lifecycle {
    # A service the action has no instance for would go without a job
    # (Terraform only warns when it is destroyed): refuse it at plan.
    precondition {
      condition     = contains(local.documented, each.key)
      error_message = "Add \"${each.key}\" to local.documented, so that its removal is documented."
    }

    action_trigger {
      events  = [before_destroy]
      actions = [action.mintlify_agent_job.document_removal[each.key]]
      # A failed job must not keep the service up: the removal goes on,
      # with the job's error as a warning.
      on_failure = continue
    }
  }
}
