terraform {
  required_version = ">= 1.14"
}

# Export the docs and save the archive, from a pipeline step:
#   mkdir -p build
#   terraform apply -auto-approve -invoke=action.mintlify_static_export.snapshot -var "release=$TAG"
# Needs Terraform 1.14 or later.
variable "release" {
  type = string
}

action "mintlify_static_export" "snapshot" {
  config {
    domain      = "docs.example.com"
    version     = var.release
    output_path = "build/docs-${var.release}.tar.gz" # build/ must exist
    timeout     = "45m"
  }
}
