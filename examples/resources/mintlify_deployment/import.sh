# A deployment is imported by its status id (the statusId the API returned
# when it was triggered; the dashboard, a CI log or the action print it):
terraform import mintlify_deployment.docs 66f1c0ffee0000000000002a

# Importing never deploys: the next apply records the configured triggers
# in state without a new deployment.
