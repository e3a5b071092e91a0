# An agent job is imported by PROJECT_ID/JOB_ID (the job id is what follows
# the last slash, so project ids may contain slashes):
terraform import mintlify_agent_job.release_notes your-project-id/0f6c1c52-3a4e-4c4f-9e55-1b6f0c9f1a2b

# or by JOB_ID alone, in the provider's project_id:
terraform import mintlify_agent_job.release_notes 0f6c1c52-3a4e-4c4f-9e55-1b6f0c9f1a2b

# The API does not return a job's prompt: after an import, the next apply
# records the configured prompt in state without starting a new job.
