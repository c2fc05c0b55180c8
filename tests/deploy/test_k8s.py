"""k8s/: every overlay renders with `kubectl kustomize`, validates against the Kubernetes
schemas (kubernetes-validate, strict), and has the properties deploy/README.md promises."""

from __future__ import annotations

import base64
import copy
from typing import Any
from urllib.parse import urlsplit

import pytest

from partida.ai.celery import BOT_QUEUE
from partida.platform.config import Settings
from partida.platform.server import LIVENESS
from tests.deploy.conftest import (
    GRPC_PORT,
    METRICS_PORT,
    PARTS,
    SERVICES,
    of_kind,
    render,
)
from tests.deploy.netpol import Endpoint, reachable, selects

kv = pytest.importorskip("kubernetes_validate",
                         reason="kubernetes-validate missing: pip install -e '.[dev]'")

NAMESPACE = {"overlays/dev": "partida-dev", "overlays/dev-keda": "partida-dev",
             "overlays/prod": "partida"}
OVERLAYS = list(NAMESPACE)
# Custom resources: no schema in kubernetes-validate; checked field by field below instead.
CRDS = {("monitoring.coreos.com/v1", "ServiceMonitor"), ("keda.sh/v1alpha1", "ScaledObject"),
        ("keda.sh/v1alpha1", "TriggerAuthentication")}
# Native gRPC probes are GA from 1.27; check the oldest supported here and the newest.
K8S_VERSIONS = ("1.29.0", kv.utils.latest_version())
CLUSTER_SCOPED = {"Namespace"}
# Environment the image reads that is not a Settings field (read by the metrics exporter).
EXTRA_ENV = {"PARTIDA_METRICS_PORT"}


def workloads(objs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {**of_kind(objs, "Deployment"), **of_kind(objs, "StatefulSet")}


def pod_labels(obj: dict[str, Any]) -> dict[str, str]:
    return obj["spec"]["template"]["metadata"]["labels"]


def container(deploy: dict[str, Any]) -> dict[str, Any]:
    (c,) = deploy["spec"]["template"]["spec"]["containers"]
    return c


def env_keys(objs: list[dict[str, Any]]) -> dict[str, str]:
    """PARTIDA_* settings from the ConfigMap and (where rendered) the Secret."""
    out: dict[str, str] = {}
    for cm in of_kind(objs, "ConfigMap").values():
        out.update(cm.get("data") or {})
    secret = of_kind(objs, "Secret").get("partida-secrets")
    if secret:
        out.update(secret.get("stringData") or {})
    return out


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_overlay_validates_against_kubernetes_schemas(overlay: str) -> None:
    objs = render(overlay)
    validated = 0
    for obj in objs:
        for version in K8S_VERSIONS:
            try:
                kv.validate(obj, version, strict=True)
                validated += 1
            except kv.utils.SchemaNotFoundError:
                assert (obj["apiVersion"], obj["kind"]) in CRDS, f"no schema for {obj['kind']}"
    assert validated >= 2 * 20


def test_strict_validation_rejects_a_misspelt_field() -> None:
    """The validator really is strict: a misspelt probe field fails."""
    deploy = copy.deepcopy(of_kind(render("overlays/dev"), "Deployment")["rules"])
    c = container(deploy)
    c["readinesProbe"] = c.pop("readinessProbe")
    with pytest.raises(kv.ValidationError):
        kv.validate(deploy, K8S_VERSIONS[-1], strict=True)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_everything_lives_in_the_overlay_namespace(overlay: str) -> None:
    objs = render(overlay)
    ns = NAMESPACE[overlay]
    for obj in objs:
        if obj["kind"] not in CLUSTER_SCOPED:
            assert obj["metadata"].get("namespace") == ns, (obj["kind"], obj["metadata"]["name"])
    namespace = of_kind(objs, "Namespace")[ns]
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_workload_is_hardened_with_probes_and_limits(overlay: str) -> None:
    objs = render(overlay)
    found = workloads(objs)
    assert set(PARTS) <= set(found)
    for name, w in found.items():
        pod = w["spec"]["template"]["spec"]
        psc = pod["securityContext"]
        assert psc["runAsNonRoot"] is True, name
        assert psc["seccompProfile"]["type"] == "RuntimeDefault", name
        assert pod["automountServiceAccountToken"] is False, name
        tmp_volumes = {v["name"] for v in pod["volumes"] if "emptyDir" in v}
        for c in pod["containers"]:
            sc = c["securityContext"]
            assert sc["readOnlyRootFilesystem"] is True, name
            assert sc["allowPrivilegeEscalation"] is False, name
            assert sc["capabilities"]["drop"] == ["ALL"], name
            assert sc.get("privileged", False) is False, name
            for kind in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(c["resources"][kind]), (name, kind)
            assert "readinessProbe" in c and "livenessProbe" in c, name
            tmp = [m for m in c["volumeMounts"] if m["mountPath"] == "/tmp"]
            assert tmp and tmp[0]["name"] in tmp_volumes, f"{name}: /tmp is not an emptyDir"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_part_runs_its_role_with_native_grpc_probes(overlay: str) -> None:
    deploys = of_kind(render(overlay), "Deployment")
    for svc in SERVICES:
        c = container(deploys[svc])
        assert c["args"] == ["serve", svc]
        assert "command" not in c  # the image's entrypoint, `partida`
        ports = {p["name"]: p["containerPort"] for p in c["ports"]}
        assert ports == {"grpc": GRPC_PORT, "metrics": METRICS_PORT}
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert c[probe]["grpc"]["port"] == GRPC_PORT, (svc, probe)
        # Readiness follows the dependencies; liveness asks only whether the process runs.
        assert "service" not in c["readinessProbe"]["grpc"], svc
        assert c["livenessProbe"]["grpc"]["service"] == LIVENESS, svc
        refs = [e for e in c["envFrom"] if "secretRef" in e or "configMapRef" in e]
        assert len(refs) == 2, svc
    worker = container(deploys["worker"])
    assert worker["command"] == ["celery"]
    args = worker["args"]
    assert args[:3] == ["-A", "partida.ai", "worker"]
    assert args[args.index("--queues") + 1] == BOT_QUEUE
    # The worker's metrics exporter counts tasks only with an in-process pool.
    assert args[args.index("--pool") + 1] in ("threads", "solo")
    for probe in ("readinessProbe", "livenessProbe"):
        assert "inspect ping" in " ".join(worker[probe]["exec"]["command"])
    assert {p["containerPort"] for p in worker["ports"]} == {METRICS_PORT}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_services_and_service_monitor_cover_every_part(overlay: str) -> None:
    objs = render(overlay)
    deploys, services = of_kind(objs, "Deployment"), of_kind(objs, "Service")
    (monitor,) = of_kind(objs, "ServiceMonitor").values()
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["path"] == "/metrics"
    for part in PARTS:
        svc = services[part]
        assert selects({"matchLabels": svc["spec"]["selector"]}, pod_labels(deploys[part]))
        ports = {p["name"]: p["port"] for p in svc["spec"]["ports"]}
        assert ports[endpoint["port"]] == METRICS_PORT, part
        if part != "worker":
            assert ports["grpc"] == GRPC_PORT, part
        assert selects(monitor["spec"]["selector"], svc["metadata"]["labels"]), part
    # ...and nothing else (the datastores are not partida's to scrape).
    scraped = {n for n, s in services.items()
               if selects(monitor["spec"]["selector"], s["metadata"].get("labels") or {})}
    assert scraped == set(PARTS)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_disruption_budgets_cover_every_part_and_allow_a_drain(overlay: str) -> None:
    objs = render(overlay)
    deploys = of_kind(objs, "Deployment")
    pdbs = list(of_kind(objs, "PodDisruptionBudget").values())
    for part in PARTS:
        mine = [p for p in pdbs if selects(p["spec"]["selector"], pod_labels(deploys[part]))]
        assert len(mine) == 1, part
        spec = mine[0]["spec"]
        replicas = deploys[part]["spec"].get("replicas", 1)
        if "minAvailable" in spec:
            assert spec["minAvailable"] < replicas, part
        else:
            assert spec["maxUnavailable"] >= 1, part


@pytest.mark.parametrize("overlay", ["overlays/dev", "overlays/prod"])
def test_rules_and_worker_scale_on_cpu(overlay: str) -> None:
    objs = render(overlay)
    deploys = of_kind(objs, "Deployment")
    targets = {h["spec"]["scaleTargetRef"]["name"]: h["spec"]
               for h in of_kind(objs, "HorizontalPodAutoscaler").values()}
    assert set(targets) == {"rules", "worker"}
    for name, spec in targets.items():
        assert name in deploys
        assert 1 <= spec["minReplicas"] <= spec["maxReplicas"]
        (metric,) = spec["metrics"]
        assert metric["resource"]["name"] == "cpu"
        # The HPA decides the replica count; a fixed one would fight it only on prod.
        if overlay == "overlays/prod":
            assert "replicas" not in deploys[name]["spec"]


def test_keda_component_scales_the_worker_on_its_celery_queue() -> None:
    objs = render("overlays/dev-keda")
    hpas = of_kind(objs, "HorizontalPodAutoscaler")
    assert [h["spec"]["scaleTargetRef"]["name"] for h in hpas.values()] == ["rules"]
    (scaled,) = of_kind(objs, "ScaledObject").values()
    assert scaled["spec"]["scaleTargetRef"]["name"] == "worker"
    assert "worker" in of_kind(objs, "Deployment")
    (trigger,) = scaled["spec"]["triggers"]
    assert trigger["type"] == "redis"
    assert trigger["metadata"]["listName"] == BOT_QUEUE
    broker = urlsplit(env_keys(objs)["PARTIDA_BROKER_URL"])
    assert trigger["metadata"]["databaseIndex"] == broker.path.strip("/")
    auth = of_kind(objs, "TriggerAuthentication")[trigger["authenticationRef"]["name"]]
    secret = of_kind(objs, "Secret")
    for ref in auth["spec"]["secretTargetRef"]:
        value = secret[ref["name"]]["stringData"][ref["key"]]
        if ref["parameter"] == "address":
            assert value == broker.netloc


@pytest.mark.parametrize("overlay", ["overlays/dev", "overlays/prod"])
def test_configuration_names_real_settings_and_real_services(overlay: str) -> None:
    objs = render(overlay)
    env = env_keys(objs)
    known = {f"PARTIDA_{name.upper()}" for name in Settings.model_fields} | EXTRA_ENV
    partida = {k for k in env if k.startswith("PARTIDA_")}
    assert partida - known == set()
    services = of_kind(objs, "Service")
    for svc in SERVICES:
        host, port = env[f"PARTIDA_{svc.upper()}_ADDRESS"].rsplit(":", 1)
        assert host == svc and int(port) in {p["port"] for p in services[svc]["spec"]["ports"]}
    assert env["PARTIDA_HOST"] == "0.0.0.0"
    assert int(env["PARTIDA_PORT"]) == GRPC_PORT
    assert int(env["PARTIDA_METRICS_PORT"]) == METRICS_PORT


def test_dev_runs_single_replicas_on_in_cluster_datastores() -> None:
    objs = render("overlays/dev")
    for name, deploy in of_kind(objs, "Deployment").items():
        assert deploy["spec"]["replicas"] == 1, name
    sets, services = of_kind(objs, "StatefulSet"), of_kind(objs, "Service")
    assert set(sets) == {"redis", "postgres"}
    env = env_keys(objs)
    for url, name in ((env["PARTIDA_REDIS_URL"], "redis"), (env["PARTIDA_BROKER_URL"], "redis"),
                      (env["PARTIDA_DATABASE_URL"], "postgres")):
        parts = urlsplit(url)
        assert parts.hostname == name
        assert parts.port in {p["port"] for p in services[name]["spec"]["ports"]}
        assert selects({"matchLabels": services[name]["spec"]["selector"]},
                       pod_labels(sets[name]))
    # The database URL's account is the one the dev PostgreSQL is created with.
    creds = of_kind(objs, "Secret")
    (pg_secret,) = [s for n, s in creds.items() if n.startswith("postgres-credentials")]
    assert [e["secretRef"]["name"] for e in container(sets["postgres"])["envFrom"]] == [
        pg_secret["metadata"]["name"]]
    db = urlsplit(env["PARTIDA_DATABASE_URL"])
    pg = {k: base64.b64decode(v).decode() for k, v in pg_secret["data"].items()}
    assert (db.username, db.password, db.path.strip("/")) == (
        pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"], pg["POSTGRES_DB"])


def test_prod_spreads_replicas_and_keeps_secrets_out_of_git() -> None:
    objs = render("overlays/prod")
    assert of_kind(objs, "Secret") == {}
    assert of_kind(objs, "StatefulSet") == {}
    for name, deploy in of_kind(objs, "Deployment").items():
        c = container(deploy)
        assert {"secretRef": {"name": "partida-secrets"}} in c["envFrom"], name
        assert not c["image"].endswith(":local"), name
        terms = deploy["spec"]["template"]["spec"]["affinity"]["podAntiAffinity"][
            "preferredDuringSchedulingIgnoredDuringExecution"]
        assert any(t["podAffinityTerm"]["topologyKey"] == "kubernetes.io/hostname"
                   and selects(t["podAffinityTerm"]["labelSelector"], pod_labels(deploy))
                   and t["podAffinityTerm"]["labelSelector"]["matchLabels"][
                       "app.kubernetes.io/component"] == name
                   for t in terms), name
        if name in ("dice", "persistence", "matchmaking"):
            assert deploy["spec"]["replicas"] >= 2, name
    for hpa in of_kind(objs, "HorizontalPodAutoscaler").values():
        assert hpa["spec"]["minReplicas"] >= 2


# --- NetworkPolicies: the whole connectivity matrix of an overlay ---------------------------

def _endpoints(objs: list[dict[str, Any]], ns: str) -> list[Endpoint]:
    ports = {"redis": (6379,), "postgres": (5432,), "worker": (METRICS_PORT,)}
    eps = [Endpoint(name, ns, pod_labels(w), ports.get(name, (GRPC_PORT, METRICS_PORT)))
           for name, w in workloads(objs).items()]
    return [*eps,
            Endpoint("client", "players", {"app": "game-client"}),
            Endpoint("prometheus", "monitoring", {"app.kubernetes.io/name": "prometheus"}),
            Endpoint("kube-dns", "kube-system", {"k8s-app": "kube-dns"}, (53,)),
            Endpoint("external-redis", ports=(6379,), ip="10.20.0.5"),
            Endpoint("external-postgres", ports=(5432,), ip="10.20.0.6")]


def _expected(datastores: dict[str, str], pods: list[str],
              outside: list[str]) -> set[tuple[str, str, int]]:
    redis, postgres = datastores["redis"], datastores["postgres"]
    # The public API (players service with persistence) takes calls from anywhere outside.
    edges = {(src, svc, GRPC_PORT) for svc in ("rules", "matchmaking", "persistence")
             for src in outside}
    edges |= {("rules", "dice", GRPC_PORT), ("rules", "persistence", GRPC_PORT),
              ("rules", "matchmaking", GRPC_PORT),  # the front door passes calls on
              ("matchmaking", "rules", GRPC_PORT), ("matchmaking", "persistence", GRPC_PORT),
              ("worker", "rules", GRPC_PORT)}
    edges |= {(src, redis, 6379) for src in ("rules", "matchmaking", "worker")}
    edges |= {(src, postgres, 5432) for src in ("persistence", "dice")}
    edges |= {("prometheus", part, METRICS_PORT) for part in PARTS}
    edges |= {(pod, "kube-dns", 53) for pod in pods}
    return edges


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_network_policies_allow_exactly_the_needed_traffic(overlay: str) -> None:
    objs = render(overlay)
    ns = NAMESPACE[overlay]
    policies = list(of_kind(objs, "NetworkPolicy").values())
    # A default deny of both directions for every pod.
    assert any(p["spec"]["podSelector"] == {} and set(p["spec"]["policyTypes"]) ==
               {"Ingress", "Egress"} and not p["spec"].get("ingress")
               and not p["spec"].get("egress") for p in policies)
    pods = list(workloads(objs))
    datastores = ({"redis": "redis", "postgres": "postgres"} if overlay.startswith("overlays/dev")
                  else {"redis": "external-redis", "postgres": "external-postgres"})
    endpoints = _endpoints(objs, ns)
    got = reachable(policies, ns, endpoints)
    expected = _expected(datastores, pods, [e.name for e in endpoints if e.namespace != ns])
    assert got - expected == set(), "allowed but not needed"
    assert expected - got == set(), "needed but not allowed"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_dice_admits_only_the_rules_service(overlay: str) -> None:
    """Dice's own ingress rules, whatever the callers' egress rules say."""
    objs = render(overlay)
    ns = NAMESPACE[overlay]
    ingress_only = []
    for p in of_kind(objs, "NetworkPolicy").values():
        if "Ingress" in p["spec"]["policyTypes"]:
            p["spec"]["policyTypes"] = ["Ingress"]
            ingress_only.append(p)
    got = reachable(ingress_only, ns, _endpoints(objs, ns))
    assert {src for src, dst, port in got if dst == "dice" and port == GRPC_PORT} == {"rules"}
