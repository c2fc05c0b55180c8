"""A small evaluator of Kubernetes NetworkPolicies, enough to compute who may connect to whom
in a rendered overlay: label selectors (matchLabels, matchExpressions), pod and namespace
peers, ipBlocks, ports, and the rule that traffic must pass both the source's egress and the
destination's ingress policies."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Endpoint:
    """A pod (namespace and labels) or, with `ip`, an address outside the cluster."""

    name: str
    namespace: str = ""
    labels: dict[str, str] = field(default_factory=dict, hash=False)
    ports: tuple[int, ...] = ()
    ip: str = ""


def selects(selector: dict[str, Any] | None, labels: dict[str, str]) -> bool:
    selector = selector or {}
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for expr in selector.get("matchExpressions") or []:
        key, op, values = expr["key"], expr["operator"], expr.get("values") or []
        ok = {"In": key in labels and labels[key] in values,
              "NotIn": key not in labels or labels[key] not in values,
              "Exists": key in labels,
              "DoesNotExist": key not in labels}[op]
        if not ok:
            return False
    return True


def _peer(peer: dict[str, Any], ep: Endpoint, ns: str) -> bool:
    if "ipBlock" in peer:
        block = peer["ipBlock"]
        if not ep.ip:
            return False  # ipBlocks are for addresses outside the cluster
        addr = ipaddress.ip_address(ep.ip)
        return addr in ipaddress.ip_network(block["cidr"]) and not any(
            addr in ipaddress.ip_network(e) for e in block.get("except") or [])
    if ep.ip:
        return False
    if "namespaceSelector" in peer:
        ns_labels = {"kubernetes.io/metadata.name": ep.namespace}
        if not selects(peer["namespaceSelector"], ns_labels):
            return False
    elif ep.namespace != ns:
        return False
    return "podSelector" not in peer or selects(peer["podSelector"], ep.labels)


def _admits(rules: list[dict[str, Any]], peers_key: str, other: Endpoint, port: int,
            ns: str) -> bool:
    for rule in rules:
        ports = rule.get("ports") or []
        if ports and not any(p.get("port") == port for p in ports):
            continue
        peers = rule.get(peers_key) or []
        if not peers or any(_peer(p, other, ns) for p in peers):
            return True
    return False


def _types(policy: dict[str, Any]) -> list[str]:
    spec = policy["spec"]
    return spec.get("policyTypes") or ["Ingress", *(["Egress"] if "egress" in spec else [])]


def allowed(policies: list[dict[str, Any]], ns: str, src: Endpoint, dst: Endpoint,
            port: int) -> bool:
    """Whether `src` may open a connection to `dst` on `port` under the policies of `ns`."""
    for me, other, kind, rules_key, peers_key in ((src, dst, "Egress", "egress", "to"),
                                                  (dst, src, "Ingress", "ingress", "from")):
        if me.ip or me.namespace != ns:
            continue  # not governed by these policies
        mine = [p for p in policies
                if kind in _types(p) and selects(p["spec"].get("podSelector"), me.labels)]
        if mine and not any(_admits(p["spec"].get(rules_key) or [], peers_key, other, port, ns)
                            for p in mine):
            return False
    return True


def reachable(policies: list[dict[str, Any]], ns: str,
              endpoints: list[Endpoint]) -> set[tuple[str, str, int]]:
    """Every (source, destination, port) allowed, for pairs with a side in `ns`."""
    return {(s.name, d.name, port)
            for s in endpoints for d in endpoints if s != d
            and ns in (s.namespace, d.namespace)
            for port in d.ports if allowed(policies, ns, s, d, port)}
