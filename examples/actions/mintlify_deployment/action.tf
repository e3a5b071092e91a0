terraform {
  required_version = ">= 1.14"
}

# Publish the docs after each release, without a resource in state: the
# action runs after terraform_data.release is created or updated (a new
# version). Needs Terraform 1.14 or later.
variable "release" {
  type = string
}

action "mintlify_deployment" "publish" {
  config {
    timeout = "20m"
  }
}

resource "terraform_data" "release" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.mintlify_deployment.publish]
    }
  }
}

# Or on demand, from CI: terraform apply -invoke=action.mintlify_deployment.publish
