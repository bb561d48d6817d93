"""Who may call which agent-service RPC: one row per RPC (docs/security.md has the table).

A method without a row is denied. Tenant paths name the request field holding the tenant
id; ``channel`` rows also check the channel the request names against the caller's channels,
``stored_channel`` rows the channel of the conversation or outbox messages the call reads or
writes (the use cases apply it: another channel's conversation is NOT_FOUND, another channel's
outbox messages are neither streamed nor acknowledged); ``calendars`` rows the calendar grants
of the principal. Every AgentService row a gateway may call has one of the two channel checks
(tests/security/test_policy_tables.py); the catalog a gateway reads is the tenant's, not a
channel's.
"""

from __future__ import annotations

from agenda_kit.auth.policy import Access, PolicyTable, rule
from agenda_kit.auth.principals import Role

GW, BO, OP = Role.GATEWAY, Role.BACKOFFICE, Role.OPERATOR
R, W = Access.READ, Access.WRITE
CAL = "professional.calendar_id"
"""A back office assigns only calendars its principal is granted (write): another tenant's
calendar cannot be pointed at (docs/security.md)."""

AGENT_POLICY = PolicyTable(
    "agenda.agent.v1.AgentService",
    {
        "SendMessage": rule(GW, access=W, tenant="tenant_id", channel="customer.channel"),
        "StreamMessage": rule(
            GW, access=W, tenant="message.tenant_id", channel="message.customer.channel"
        ),
        "GetConversation": rule(GW, BO, OP, access=R, tenant="tenant_id", stored_channel=True),
        "HandOff": rule(GW, BO, access=W, tenant="tenant_id", stored_channel=True),
        "HandBack": rule(GW, BO, access=W, tenant="tenant_id", stored_channel=True),
        "EndConversation": rule(GW, access=W, tenant="tenant_id", stored_channel=True),
        "StreamOutbox": rule(GW, access=R, tenant="tenant_id", stored_channel=True),
        "AckOutbox": rule(GW, access=W, tenant="tenant_id", stored_channel=True),
    },
)

CATALOG_POLICY = PolicyTable(
    "agenda.agent.v1.CatalogService",
    {
        "CreateTenant": rule(OP, BO, access=W),
        "GetTenant": rule(GW, BO, OP, access=R, tenant="tenant_id"),
        "UpdateTenant": rule(BO, access=W, tenant="tenant.id"),
        "ListTenants": rule(OP, BO, access=R),
        "CreateService": rule(BO, access=W, tenant="service.tenant_id"),
        "UpdateService": rule(BO, access=W, tenant="service.tenant_id"),
        "DeleteService": rule(BO, access=W, tenant="tenant_id"),
        "ListServices": rule(GW, BO, OP, access=R, tenant="tenant_id"),
        "CreateProfessional": rule(BO, access=W, tenant="professional.tenant_id", calendars=CAL),
        "UpdateProfessional": rule(BO, access=W, tenant="professional.tenant_id", calendars=CAL),
        "DeleteProfessional": rule(BO, access=W, tenant="tenant_id"),
        "ListProfessionals": rule(GW, BO, OP, access=R, tenant="tenant_id"),
        "CreateFaqEntry": rule(BO, access=W, tenant="entry.tenant_id"),
        "UpdateFaqEntry": rule(BO, access=W, tenant="entry.tenant_id"),
        "DeleteFaqEntry": rule(BO, access=W, tenant="tenant_id"),
        "ListFaqEntries": rule(GW, BO, OP, access=R, tenant="tenant_id"),
        "UpsertCustomer": rule(BO, access=W, tenant="customer.tenant_id"),
        "GetCustomer": rule(BO, OP, access=R, tenant="tenant_id"),
        "ListCustomers": rule(BO, OP, access=R, tenant="tenant_id"),
        "ListAppointments": rule(BO, OP, access=R, tenant="tenant_id"),
        "CancelAppointment": rule(BO, access=W, tenant="tenant_id"),
    },
)
