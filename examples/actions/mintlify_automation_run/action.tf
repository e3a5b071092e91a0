terraform {
  required_version = ">= 1.14"
}

# Run a scheduled automation now, for example after each merge to main:
#   terraform apply -invoke=action.mintlify_automation_run.changelog
# The automation must be active and on a custom schedule. The action reports
# the run's instance id and job id, and does not wait (the API has no status
# for runs). Needs Terraform 1.14 or later.
action "mintlify_automation_run" "changelog" {
  config {
    automation_id = "your-automation-id" # from the automation's settings panel
  }
}
