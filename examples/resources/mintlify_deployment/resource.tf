# Publish the docs whenever the docs repository's commit changes: one
# deployment per new commit, none when the same commit is applied again.
variable "docs_commit" {
  type        = string
  description = "The docs repository's commit to publish, for example $GITHUB_SHA."
}

resource "mintlify_deployment" "docs" {
  triggers = { commit = var.docs_commit }

  timeouts {
    create = "20m" # how long apply waits for success or failure
  }
}

output "deployment_status" {
  value = mintlify_deployment.docs.status # "success": a failure fails the apply
}

output "deployed_commit" {
  value = mintlify_deployment.docs.commit_sha
}
