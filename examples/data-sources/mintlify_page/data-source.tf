# The pricing page is live and names the current plans.
check "pricing_page_is_current" {
  data "mintlify_page" "pricing" {
    path = "/pricing"
  }

  assert {
    condition     = strcontains(data.mintlify_page.pricing.content, "Enterprise")
    error_message = "The live /pricing page does not mention the Enterprise plan."
  }
}

# A page only signed-in staff may read.
data "mintlify_page" "runbook" {
  domain = "acme-internal"
  path   = "ops/runbook"
  groups = ["staff"]
}

output "runbook_length" {
  value = length(data.mintlify_page.runbook.content)
}
