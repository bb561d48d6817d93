"""deploy/kubernetes (issue 14 §3): the example overlay renders (``tests.deploy.kustomize``, no
kubectl needed; checked against ``kubectl kustomize`` when one is installed), every object is
valid for Kubernetes with ``kubernetes-validate --strict`` (schemas bundled, offline), and the
manifests agree with the code: settings, ports, health names, drain timing, selectors,
NetworkPolicy callers, Secrets."""

from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml

from agenda_kit.auth.directory import parse_directory
from agenda_kit.grpc.server import LIVENESS
from agent_service.infrastructure.settings import AgentSettings
from calendar_service.infrastructure.settings import CalendarSettings
from tests.deploy.kustomize import Object, UnsupportedError, render
from tests.docs.test_configuration_doc import all_settings

REPO = Path(__file__).resolve().parents[2]
KUBE = REPO / "deploy" / "kubernetes"
OVERLAY = KUBE / "overlays" / "example"
VERSION = kubernetes_validate.latest_version()
SERVICES = {
    "agenda-agent": ("AGENT", AgentSettings().grpc_port, AgentSettings().metrics_port),
    "agenda-calendar": ("CALENDAR", CalendarSettings().grpc_port, CalendarSettings().metrics_port),
}


@pytest.fixture(scope="module")
def rendered() -> list[Object]:
    return render(OVERLAY)


def by_kind(objects: list[Object], kind: str) -> dict[str, Object]:
    return {o["metadata"]["name"]: o for o in objects if o["kind"] == kind}


def container(deployment: Object) -> Object:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return dict(containers[0])


def test_every_rendered_object_is_valid_kubernetes_strictly(rendered: list[Object]) -> None:
    kinds = Counter(o["kind"] for o in rendered)
    assert kinds["Deployment"] == kinds["HorizontalPodAutoscaler"] == 2
    assert kinds["PodDisruptionBudget"] == kinds["NetworkPolicy"] == kinds["Service"] == 2
    assert kinds["Secret"] >= 4
    for obj in rendered:
        kubernetes_validate.validate(obj, VERSION, strict=True)
        if obj["kind"] != "Namespace":
            assert obj["metadata"]["namespace"] == "agenda-example"


def test_the_kubernetes_validate_command_passes_the_rendered_overlay(
    rendered: list[Object], tmp_path: Path
) -> None:
    """The command line as operators run it: ``kubernetes-validate --strict`` on the file."""
    manifest = tmp_path / "rendered.yaml"
    manifest.write_text(yaml.safe_dump_all(rendered, sort_keys=False))
    command = Path(sys.executable).parent / "kubernetes-validate"
    result = subprocess.run(
        [str(command), "--strict", "--quiet", "-k", VERSION, str(manifest)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_strict_validation_rejects_an_unknown_field(rendered: list[Object]) -> None:
    """--strict is on: a misspelt field would not slip through."""
    broken = copy.deepcopy(by_kind(rendered, "Deployment")["agenda-agent"])
    broken["spec"]["template"]["spec"]["containers"][0]["readinessProbes"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSION, strict=True)


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="no kubectl to compare with")
def test_the_renderer_agrees_with_kubectl_kustomize(rendered: list[Object]) -> None:
    output = subprocess.run(
        ["kubectl", "kustomize", str(OVERLAY)], check=True, capture_output=True, text=True
    ).stdout
    theirs = [doc for doc in yaml.safe_load_all(output) if doc]

    def key(o: Object) -> tuple[str, str]:
        return o["kind"], o["metadata"]["name"]

    assert sorted(theirs, key=key) == sorted(rendered, key=key)


def test_the_renderer_refuses_what_it_does_not_implement(tmp_path: Path) -> None:
    (tmp_path / "kustomization.yaml").write_text("resources: []\ncommonLabels: {a: b}\n")
    with pytest.raises(UnsupportedError, match="commonLabels"):
        render(tmp_path)


def env_names(objects: list[Object]) -> set[str]:
    names = set(by_kind(objects, "ConfigMap")["agenda-config"]["data"])
    for deployment in by_kind(objects, "Deployment").values():
        names |= {item["name"] for item in container(deployment).get("env", [])}
    return names


def test_every_variable_set_is_a_real_setting(rendered: list[Object]) -> None:
    unknown = env_names(rendered) - set(all_settings())
    assert unknown == set()


def test_probes_ports_and_drain_timing_match_the_services(rendered: list[Object]) -> None:
    config = by_kind(rendered, "ConfigMap")["agenda-config"]["data"]
    for name, (prefix, grpc_port, metrics_port) in SERVICES.items():
        deployment = by_kind(rendered, "Deployment")[name]
        main = container(deployment)
        ports = {p["name"]: p["containerPort"] for p in main["ports"]}
        assert ports == {"grpc": grpc_port, "metrics": metrics_port}
        assert config[f"{prefix}_GRPC_HOST"] == "0.0.0.0"
        assert main["readinessProbe"]["grpc"] == {"port": grpc_port}  # overall: follows MongoDB
        assert main["startupProbe"]["grpc"] == {"port": grpc_port}
        assert main["livenessProbe"]["grpc"] == {"port": grpc_port, "service": LIVENESS}
        pre_stop = main["lifecycle"]["preStop"]["sleep"]["seconds"]
        grace = float(config[f"{prefix}_SHUTDOWN_GRACE_SECONDS"])
        termination = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
        assert pre_stop + grace < termination, (name, pre_stop, grace, termination)
        assert main["resources"]["requests"]["cpu"] and main["resources"]["limits"]["memory"]


def test_autoscalers_budgets_and_headless_services_select_the_deployments(
    rendered: list[Object],
) -> None:
    for name, (_, grpc_port, _) in SERVICES.items():
        labels = by_kind(rendered, "Deployment")[name]["spec"]["template"]["metadata"]["labels"]
        hpa = by_kind(rendered, "HorizontalPodAutoscaler")[name]["spec"]
        assert hpa["scaleTargetRef"] == {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "name": name,
        }
        assert 2 <= hpa["minReplicas"] < hpa["maxReplicas"]
        pdb = by_kind(rendered, "PodDisruptionBudget")[name]["spec"]
        assert pdb["maxUnavailable"] == 1
        assert pdb["selector"]["matchLabels"].items() <= labels.items()
        service = by_kind(rendered, "Service")[f"{name}-headless"]["spec"]
        assert service["clusterIP"] == "None"
        assert service["selector"].items() <= labels.items()
        assert [p["port"] for p in service["ports"]] == [grpc_port]
    addr = by_kind(rendered, "ConfigMap")["agenda-config"]["data"]["AGENT_CALENDAR_ADDR"]
    assert addr == f"dns:///agenda-calendar-headless:{CalendarSettings().grpc_port}"


def callers(policy: Object, port: int) -> list[dict[str, Any]]:
    return [
        peer
        for rule in policy["spec"]["ingress"]
        if any(p["port"] == port for p in rule["ports"])
        for peer in rule["from"]
    ]


def test_network_policy_only_gateways_reach_the_agent_and_named_callers_the_calendar(
    rendered: list[Object],
) -> None:
    policies = by_kind(rendered, "NetworkPolicy")
    agent = policies["agenda-agent"]
    assert agent["spec"]["policyTypes"] == ["Ingress", "Egress"]
    assert callers(agent, 50052) == [
        {"namespaceSelector": {}, "podSelector": {"matchLabels": {"agenda.dev/role": "gateway"}}},
        {"podSelector": {"matchLabels": {"agenda.dev/role": "admin"}}},  # the bootstrap Job
    ]
    (job,) = by_kind(rendered, "Job").values()
    assert job["spec"]["template"]["metadata"]["labels"]["agenda.dev/role"] == "admin"
    calendar = policies["agenda-calendar"]
    assert callers(calendar, 50051) == [
        {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "agenda-agent"}}},
        {
            "namespaceSelector": {},
            "podSelector": {"matchLabels": {"agenda.dev/calendar-client": "true"}},
        },
    ]
    for policy, metrics in ((agent, 9452), (calendar, 9451)):
        scrapers = callers(policy, metrics)
        assert scrapers == [
            {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}
        ]
    calendar_egress = agent["spec"]["egress"][0]
    assert calendar_egress["to"] == [
        {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "agenda-calendar"}}}
    ]


def test_every_secret_referenced_is_defined_by_the_example(rendered: list[Object]) -> None:
    secrets = by_kind(rendered, "Secret")
    for deployment in by_kind(rendered, "Deployment").values():
        for item in container(deployment).get("env", []):
            ref = item.get("valueFrom", {}).get("secretKeyRef")
            if ref:
                assert ref["key"] in secrets[ref["name"]]["stringData"], ref
    for workload in [*by_kind(rendered, "Deployment").values(), *by_kind(rendered, "Job").values()]:
        for volume in workload["spec"]["template"]["spec"]["volumes"]:
            if "secret" in volume and volume["secret"]["secretName"] != "agenda-google":
                assert volume["secret"]["secretName"] in secrets  # Google key: only with Google
    for name, secret in secrets.items():
        assert all(
            "change-me" in str(v) or "token_sha256" in str(v) for v in secret["stringData"].values()
        ), name


def test_base_alone_renders_without_secrets_or_namespace() -> None:
    objects = render(KUBE / "base")
    assert not by_kind(objects, "Secret")
    assert all("namespace" not in o["metadata"] for o in objects)
    assert yaml.safe_dump_all(objects)  # serialisable as rendered


def test_the_example_principals_files_parse_and_match_the_example_tokens(
    rendered: list[Object],
) -> None:
    """The Secrets' principals files are valid for the services' own parser, and each token
    the example gives a caller resolves to the principal meant for it."""
    secrets = by_kind(rendered, "Secret")
    agent = parse_directory(
        secrets["agenda-agent-principals"]["stringData"]["principals.toml"], Path("/")
    )
    gateway_token = secrets["agenda-agent-auth"]["stringData"]["gateway-token"]
    gateway = agent.by_token(gateway_token)
    assert gateway is not None and gateway.name == "whatsapp-gateway"
    bootstrap = agent.by_token(secrets["agenda-bootstrap"]["stringData"]["operator-token"])
    assert bootstrap is not None and bootstrap.name == "bootstrap-operator"
    assert agent.by_token(secrets["agenda-bootstrap"]["stringData"]["office-token"]) is None
    calendar = parse_directory(
        secrets["agenda-calendar-principals"]["stringData"]["principals.toml"], Path("/")
    )
    agent_token = secrets["agenda-calendar-auth"]["stringData"]["agent-token"]
    caller = calendar.by_token(agent_token)
    assert caller is not None and caller.name == "agent"
