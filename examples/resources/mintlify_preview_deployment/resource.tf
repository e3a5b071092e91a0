# A preview of each pull request's branch: CI passes the branch and its head
# commit. A new commit redeploys the preview in place, under the same URL.
variable "branch" {
  type        = string
  description = "The pull request's head branch, for example $GITHUB_HEAD_REF."
}

variable "head_sha" {
  type        = string
  description = "The branch's head commit."
}

resource "mintlify_preview_deployment" "pr" {
  branch   = var.branch
  triggers = { commit = var.head_sha }
}

output "preview_url" {
  value = mintlify_preview_deployment.pr.preview_url
}
