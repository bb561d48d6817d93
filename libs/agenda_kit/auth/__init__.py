"""Who is calling (principals from tokens, JWTs or client certificates) and what they may do
(a declarative per-RPC policy, checked at the edge)."""
