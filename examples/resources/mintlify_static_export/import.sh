# A static export is imported by its job id:
terraform import mintlify_static_export.release se_3f9a2c1b8e7d4a06

# The API does not return an export's domain, version or paths: after an
# import, the next apply records the configured ones without a new export.
