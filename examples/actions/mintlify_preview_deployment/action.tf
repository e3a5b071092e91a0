terraform {
  required_version = ">= 1.14"
}

# Deploy (or redeploy) the preview of a branch, on demand from CI:
#   terraform apply -invoke=action.mintlify_preview_deployment.pr -var "branch=$GITHUB_HEAD_REF"
# The preview's URL is in the run's output. Needs Terraform 1.14 or later.
variable "branch" {
  type = string
}

action "mintlify_preview_deployment" "pr" {
  config {
    branch = var.branch
  }
}
