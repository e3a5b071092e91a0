terraform {
  required_version = ">= 1.10"
}

# Download a release's archive with curl, without the presigned link ever
# reaching the plan, the state or the output (Terraform 1.10+).
variable "release" {
  type = string
}

resource "mintlify_static_export" "release" {
  domain   = "docs.example.com"
  version  = var.release
  triggers = { release = var.release }
}

ephemeral "mintlify_static_export_bundle" "release" {
  job_id = mintlify_static_export.release.id
}

resource "terraform_data" "archive" {
  # Download once per export.
  triggers_replace = [mintlify_static_export.release.id]

  provisioner "local-exec" {
    # The link is passed in the environment, never in the command line
    # Terraform prints.
    command = "curl -fsS --retry 3 -o docs-${var.release}.tar.gz \"$BUNDLE_URL\""
    environment = {
      BUNDLE_URL = ephemeral.mintlify_static_export_bundle.release.url
    }
  }
}
