# A preview is imported by the status id of one of its deployments:
terraform import mintlify_preview_deployment.pr 66f1c0ffee0000000000002b

# The status does not name the branch: the next apply adopts the configured
# branch and triggers without deploying. preview_url stays null until the
# next redeploy (the API gives the URL only when a preview is triggered).
