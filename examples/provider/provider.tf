terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1"
    }
  }
}

# The key is best kept out of configuration: set MINTLIFY_API_KEY (and
# MINTLIFY_PROJECT_ID) in the environment and leave the block empty.
provider "mintlify" {
  project_id = "your-project-id" # from the API keys page of the dashboard
}

# Or explicitly, with the key from a variable marked sensitive.
variable "mintlify_api_key" {
  type      = string
  sensitive = true
}

provider "mintlify" {
  alias           = "tuned"
  api_key         = var.mintlify_api_key
  project_id      = "your-project-id"
  max_retries     = 6     # retries of refused (429) requests and of failed reads
  max_retry_wait  = "2m"  # longer Retry-After waits fail at once (or use the cache)
  request_timeout = "90s" # one request, sending to last byte

  # Analytics answers are cached on disk, shared by every terraform command
  # on the machine: a plan and the apply after it read once.
  cache_ttl       = "6h" # last month's numbers do not change
  cache_max_stale = "7d" # when the hourly budget is spent, show a week-old copy with a warning
}

# CI runners start with empty disks: one shared bucket makes the fleet read
# each analytics answer once per cache_ttl, and remember for all of them
# when the hourly budget is spent. Credentials come from the store's own
# chain (here the runner's AWS role), never from the URL.
provider "mintlify" {
  alias      = "ci"
  project_id = "your-project-id"
  cache_url  = "s3://acme-terraform-cache?region=us-east-1&prefix=mintlify/"
}

# Searching the live docs (mintlify_search, mintlify_page) takes an
# assistant key, and nothing else: set MINTLIFY_ASSISTANT_API_KEY (and
# MINTLIFY_DOMAIN) in the environment, or:
variable "mintlify_assistant_api_key" {
  type      = string
  sensitive = true
}

provider "mintlify" {
  alias             = "docs_site"
  assistant_api_key = var.mintlify_assistant_api_key
  domain            = "acme" # from acme.mintlify.site, at the end of the dashboard's URL
}
