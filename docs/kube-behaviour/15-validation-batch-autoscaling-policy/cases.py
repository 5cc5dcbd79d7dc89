# Validation cases of CronJob, HorizontalPodAutoscaler (autoscaling/v2 and v1) and PodDisruptionBudget: each is
# (name, setup requests, request). Bodies are JSON; "val" is the namespace (record.py gives each case its own).
CJ = "/apis/batch/v1/namespaces/val/cronjobs"
HPA = "/apis/autoscaling/v2/namespaces/val/horizontalpodautoscalers"
HPA1 = "/apis/autoscaling/v1/namespaces/val/horizontalpodautoscalers"
PDB = "/apis/policy/v1/namespaces/val/poddisruptionbudgets"
MP = "application/merge-patch+json"
def post(path, body): return ("POST", path, body, "application/json")
def put(path, body): return ("PUT", path, body, "application/json")
def patch(path, body, ct=MP): return ("PATCH", path, body, ct)

def cj(name="cj", schedule="*/5 * * * *", spec=None, job=None, pod=None):
    podspec = {"containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "OnFailure"}
    podspec.update(pod or {})
    jobspec = {"template": {"spec": podspec}}
    jobspec.update(job or {})
    s = {"jobTemplate": {"spec": jobspec}}
    if schedule is not None: s["schedule"] = schedule
    s.update(spec or {})
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name}, "spec": s}
def sched(name, schedule, code_hint=""): return (name, [], post(CJ, cj(schedule=schedule)))

CPU = {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}}
def hpa(name="h", spec=None, metrics=None, ref=None):
    s = {"scaleTargetRef": ref or {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "minReplicas": 1, "maxReplicas": 3}
    if metrics is not None: s["metrics"] = metrics
    s.update(spec or {})
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": name}, "spec": s}
def hpa1(name="h", spec=None):
    s = {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "maxReplicas": 3}
    s.update(spec or {})
    return {"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": name}, "spec": s}
def behavior(**rules): return hpa(metrics=[CPU], spec={"behavior": rules})
def metric(m): return hpa(metrics=[m])

def pdb(name="p", spec=None):
    s = {"selector": {"matchLabels": {"app": "a"}}}
    s.update(spec or {})
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": name}, "spec": s}

CASES = [
 # cron jobs
 ("a cron job with a bad schedule and a job that restarts always is refused", [],
  post(CJ, cj(name="cj1", schedule="not a schedule", pod={"restartPolicy": "Always"}))),
 ("a cron job with a five-field schedule is created", [], post(CJ, cj())),
 ("a cron job needs a schedule", [], post(CJ, cj(schedule=None))),
 ("an empty schedule is required", [], post(CJ, cj(schedule=""))),
 sched("a schedule may be a macro", "@hourly"),
 sched("a schedule may be @every a duration", "@every 1h30m"),
 sched("an @every needs a duration", "@every soon"),
 sched("an unknown macro is refused", "@fortnightly"),
 sched("a schedule may name months and weekdays", "0 9 * jan-jun mon,fri"),
 sched("a schedule may use steps, ranges and question marks", "*/15 0-12/2 1,15 * ?"),
 sched("six fields are refused", "0 * * * * *"),
 sched("a minute above 59 is refused", "60 * * * *"),
 sched("an hour above 23 is refused", "0 24 * * *"),
 sched("a day of month below 1 is refused", "0 0 0 * *"),
 sched("a range must not run backwards", "0 5-1 * * *"),
 sched("a step of zero is refused", "*/0 * * * *"),
 sched("a field must be a number or a name", "x * * * *"),
 sched("a range may not hold two hyphens", "1-2-3 * * * *"),
 sched("a range may not hold two slashes", "*/2/3 * * * *"),
 sched("an open range start is refused", "-5 * * * *"),
 sched("an unknown weekday is refused", "0 0 * * funday"),
 sched("TZ in a schedule is refused in favour of timeZone", "TZ=UTC 0 * * * *"),
 sched("CRON_TZ with an unknown zone is refused twice", "CRON_TZ=Mars/Olympus 0 * * * *"),
 sched("a weekday above 6 is refused", "0 0 * * 7"),
 sched("macros are lower case", "@HOURLY"),
 sched("TZ before a macro is refused once", "TZ=UTC @hourly"),
 sched("a negative step is refused", "*/-1 * * * *"),
 sched("several ranges may be listed", "0,15,30,45 */6 1-7,15 * mon-fri"),
 ("a time zone may be an IANA name", [], post(CJ, cj(spec={"timeZone": "Europe/Berlin"}))),
 ("a time zone may not be empty", [], post(CJ, cj(spec={"timeZone": ""}))),
 ("an unknown time zone is refused", [], post(CJ, cj(spec={"timeZone": "Mars/Olympus"}))),
 ("a time zone with bad characters is refused", [], post(CJ, cj(spec={"timeZone": "Europe/Ber lin"}))),
 ("a time zone may not be Local", [], post(CJ, cj(spec={"timeZone": "Local"}))),
 ("a time zone may not climb up", [], post(CJ, cj(spec={"timeZone": "../etc/passwd"}))),
 ("a time zone with TZ in the schedule is refused", [], post(CJ, cj(schedule="TZ=UTC 0 * * * *", spec={"timeZone": "UTC"}))),
 ("startingDeadlineSeconds may not be negative", [], post(CJ, cj(spec={"startingDeadlineSeconds": -1}))),
 ("concurrencyPolicy is an enum", [], post(CJ, cj(spec={"concurrencyPolicy": "Sometimes"}))),
 ("successfulJobsHistoryLimit may not be negative", [], post(CJ, cj(spec={"successfulJobsHistoryLimit": -1}))),
 ("failedJobsHistoryLimit may not be negative", [], post(CJ, cj(spec={"failedJobsHistoryLimit": -2}))),
 ("history limits may be zero", [], post(CJ, cj(spec={"successfulJobsHistoryLimit": 0, "failedJobsHistoryLimit": 0}))),
 ("a cron job name may hold 52 characters", [], post(CJ, cj(name="c" * 52))),
 ("a cron job name may not hold 53 characters", [], post(CJ, cj(name="c" * 53))),
 ("a cron job name must be a DNS subdomain", [], post(CJ, cj(name="Cron_Job"))),
 ("a job template's selector will be generated", [], post(CJ, cj(job={"selector": {"matchLabels": {"a": "b"}}}))),
 ("a job template may not select manually", [], post(CJ, cj(job={"manualSelector": True}))),
 ("a job template's pod may not restart always", [], post(CJ, cj(pod={"restartPolicy": "Always"}))),
 ("a job template's pod needs containers", [], post(CJ, cj(pod={"containers": []}))),
 ("a job template's counts may not be negative", [], post(CJ, cj(job={"parallelism": -1, "completions": -1, "activeDeadlineSeconds": -1, "backoffLimit": -1, "ttlSecondsAfterFinished": -1}))),
 ("a job template's completion mode is an enum", [], post(CJ, cj(job={"completionMode": "Sometimes"}))),
 ("an indexed job template needs completions", [], post(CJ, cj(job={"completionMode": "Indexed"}))),
 ("several cron job errors come in kube's order", [],
  post(CJ, cj(name="c" * 53, schedule="99 * * * *", spec={"startingDeadlineSeconds": -1, "timeZone": "Nowhere", "concurrencyPolicy": "Never", "successfulJobsHistoryLimit": -1, "failedJobsHistoryLimit": -1}, pod={"restartPolicy": "Always"}))),
 ("a cron job's whole update is validated", [post(CJ, cj())], put(CJ + "/cj", cj(schedule="@yearly", spec={"concurrencyPolicy": "Whenever"}))),
 ("a cron job's schedule may not become invalid", [post(CJ, cj())], patch(CJ + "/cj", {"spec": {"schedule": "* * *"}})),
 ("a cron job's time zone may not become unknown", [post(CJ, cj())], patch(CJ + "/cj", {"spec": {"timeZone": "Nowhere/Else"}})),
 ("a cron job's schedule may change", [post(CJ, cj())], patch(CJ + "/cj", {"spec": {"schedule": "@daily"}})),
 ("a cron job's status is not validated", [post(CJ, cj())], patch(CJ + "/cj/status", {"status": {"lastScheduleTime": "2024-01-01T00:00:00Z"}})),
 # autoscaling/v2
 ("an autoscaler with nothing to scale and no replicas is refused", [],
  post(HPA, hpa(ref={"kind": "", "name": ""}, spec={"minReplicas": 0, "maxReplicas": 0}))),
 ("an autoscaler with a CPU target is created", [], post(HPA, hpa(metrics=[CPU]))),
 ("an autoscaler without metrics is created", [], post(HPA, hpa())),
 ("maxReplicas may not be below minReplicas", [], post(HPA, hpa(spec={"minReplicas": 5, "maxReplicas": 2}))),
 ("maxReplicas is needed", [], post(HPA, {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h"}, "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "d"}}})),
 ("a scale target name must be a path segment", [], post(HPA, hpa(ref={"kind": "Deploy/ment", "name": ".."}))),
 ("scaling to zero needs an object or external metric", [], post(HPA, hpa(spec={"minReplicas": 0}, metrics=[CPU]))),
 ("scaling to zero is gated even with an external metric", [], post(HPA, hpa(spec={"minReplicas": 0}, metrics=[{"type": "External", "external": {"metric": {"name": "q"}, "target": {"type": "Value", "value": "10"}}}]))),
 ("a metric needs a type", [], post(HPA, metric({"resource": CPU["resource"]}))),
 ("a metric type is an enum", [], post(HPA, metric({"type": "Bogus"}))),
 ("a metric needs its source", [], post(HPA, metric({"type": "Pods"}))),
 ("a metric has only its own source", [], post(HPA, metric({"type": "Resource", "resource": CPU["resource"], "pods": {"metric": {"name": "m"}, "target": {"type": "AverageValue", "averageValue": "1"}}}))),
 ("a resource metric needs a name and a target", [], post(HPA, metric({"type": "Resource", "resource": {"target": {"type": "Utilization"}}}))),
 ("a resource metric may not set utilization and a value", [], post(HPA, metric({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50, "averageValue": "100m"}}}))),
 ("a target type is one of three", [], post(HPA, metric({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Percent", "averageUtilization": 50}}}))),
 ("a target needs a type", [], post(HPA, metric({"type": "Resource", "resource": {"name": "cpu", "target": {"averageUtilization": 50}}}))),
 ("a target utilization must be positive", [], post(HPA, metric({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 0}}}))),
 ("a target value must be positive", [], post(HPA, metric({"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "0"}}}))),
 ("a negative target value is refused", [], post(HPA, metric({"type": "External", "external": {"metric": {"name": "q"}, "target": {"type": "Value", "value": "-500m"}}}))),
 ("a binary target value must be positive", [], post(HPA, metric({"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "-1Gi"}}}))),
 ("a pods metric needs a name and an average value", [], post(HPA, metric({"type": "Pods", "pods": {"metric": {}, "target": {"type": "Value", "value": "1"}}}))),
 ("an object metric needs an object, a name and a value", [], post(HPA, metric({"type": "Object", "object": {"describedObject": {}, "metric": {"name": "a/b"}, "target": {"type": "Value"}}}))),
 ("an external metric may not set a value and an average value", [], post(HPA, metric({"type": "External", "external": {"metric": {"name": "q"}, "target": {"type": "Value", "value": "1", "averageValue": "2"}}}))),
 ("an external metric needs a target value", [], post(HPA, metric({"type": "External", "external": {"metric": {"name": "q"}, "target": {"type": "Value"}}}))),
 ("a container resource metric needs a container", [], post(HPA, metric({"type": "ContainerResource", "containerResource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 60}}}))),
 ("a container resource metric's container is a DNS label", [], post(HPA, metric({"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "App_1", "target": {"type": "Utilization", "averageUtilization": 60}}}))),
 ("a container resource name must be a resource name", [], post(HPA, metric({"type": "ContainerResource", "containerResource": {"name": "bad name", "container": "app", "target": {"type": "Utilization", "averageUtilization": 60}}}))),
 ("a behavior may be set", [], post(HPA, behavior(scaleDown={"stabilizationWindowSeconds": 300, "policies": [{"type": "Pods", "value": 1, "periodSeconds": 60}]}))),
 ("a stabilization window may not be negative", [], post(HPA, behavior(scaleUp={"stabilizationWindowSeconds": -1}))),
 ("a stabilization window is at most an hour", [], post(HPA, behavior(scaleDown={"stabilizationWindowSeconds": 3601}))),
 ("a select policy is an enum", [], post(HPA, behavior(scaleUp={"selectPolicy": "Average"}))),
 ("explicitly empty policies are refused", [], post(HPA, behavior(scaleUp={"policies": []}))),
 ("a scaling policy's type, value and period are checked", [], post(HPA, behavior(scaleDown={"policies": [{"type": "Nodes", "value": 0, "periodSeconds": 0}, {"type": "Percent", "value": 10, "periodSeconds": 1801}]}))),
 ("an autoscaler's update is validated", [post(HPA, hpa(metrics=[CPU]))], patch(HPA + "/h", {"spec": {"maxReplicas": 0}})),
 ("an autoscaler's status counts may not be negative", [post(HPA, hpa(metrics=[CPU]))], patch(HPA + "/h/status", {"status": {"currentReplicas": -1, "desiredReplicas": -2}})),
 # autoscaling/v1
 ("a v1 autoscaler with nothing to scale and no replicas is refused", [],
  post(HPA1, hpa1(spec={"scaleTargetRef": {"kind": "", "name": ""}, "minReplicas": 0, "maxReplicas": 0}))),
 ("a v1 autoscaler's CPU target must be positive", [], post(HPA1, hpa1(spec={"targetCPUUtilizationPercentage": 0}))),
 ("a v1 autoscaler is created", [], post(HPA1, hpa1(spec={"targetCPUUtilizationPercentage": 70}))),
 ("a v1 autoscaler's update is validated", [post(HPA1, hpa1())], patch(HPA1 + "/h", {"spec": {"minReplicas": 4, "maxReplicas": 2}})),
 ("a v1 autoscaler's status counts may not be negative", [post(HPA1, hpa1())], patch(HPA1 + "/h/status", {"status": {"currentReplicas": -1}})),
 # pod disruption budgets
 ("a budget may not set minAvailable and maxUnavailable", [], post(PDB, pdb(spec={"minAvailable": "150%", "maxUnavailable": 1}))),
 ("a budget with a percentage is created", [], post(PDB, pdb(spec={"minAvailable": "50%"}))),
 ("a budget without selector is created", [], post(PDB, {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "p"}, "spec": {"maxUnavailable": 1}})),
 ("minAvailable may not be negative", [], post(PDB, pdb(spec={"minAvailable": -1}))),
 ("maxUnavailable must be a percentage", [], post(PDB, pdb(spec={"maxUnavailable": "half"}))),
 ("maxUnavailable may not exceed 100%", [], post(PDB, pdb(spec={"maxUnavailable": "101%"}))),
 ("a budget's selector is checked", [], post(PDB, pdb(spec={"minAvailable": 1, "selector": {"matchLabels": {"bad key!": "v"}, "matchExpressions": [{"key": "a", "operator": "Near"}]}}))),
 ("a budget's selector values are checked", [], post(PDB, pdb(spec={"minAvailable": 1, "selector": {"matchExpressions": [{"key": "a", "operator": "In"}, {"key": "b", "operator": "In", "values": ["bad value!"]}, {"key": "c", "operator": "Exists", "values": ["x"]}]}}))),
 ("a budget may be a zero count", [], post(PDB, pdb(spec={"maxUnavailable": 0}))),
 ("unhealthyPodEvictionPolicy is an enum", [], post(PDB, pdb(spec={"minAvailable": 1, "unhealthyPodEvictionPolicy": "Never"}))),
 ("a budget's update is validated", [post(PDB, pdb(spec={"minAvailable": 1}))], patch(PDB + "/p", {"spec": {"maxUnavailable": "10%"}})),
 ("a budget's status counts may not be negative", [post(PDB, pdb(spec={"minAvailable": 1}))],
  patch(PDB + "/p/status", {"status": {"disruptionsAllowed": -1, "currentHealthy": -1, "desiredHealthy": -1, "expectedPods": -1}})),
 ("a budget's status conditions are checked", [post(PDB, pdb(spec={"minAvailable": 1}))],
  patch(PDB + "/p/status", {"status": {"conditions": [{"type": "Bad Type", "status": "Maybe", "reason": "", "message": "", "lastTransitionTime": None}]}})),
]

# Jobs: their spec checks are shared with cron jobs' templates
JOBS = "/apis/batch/v1/namespaces/val/jobs"
def job(spec=None, pod=None):
    podspec = {"containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "Never"}
    podspec.update(pod or {})
    s = {"template": {"spec": podspec}}
    s.update(spec or {})
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": s}
CASES += [
 ("a job's activeDeadlineSeconds may not be negative", [], post(JOBS, job(spec={"activeDeadlineSeconds": -1}))),
 ("a job's ttlSecondsAfterFinished may not be negative", [], post(JOBS, job(spec={"ttlSecondsAfterFinished": -1}))),
 ("a job's per-index backoff needs indexed completion", [], post(JOBS, job(spec={"backoffLimitPerIndex": 1, "maxFailedIndexes": 1}))),
 ("a job's pods may restart on failure", [], post(JOBS, job(pod={"restartPolicy": "OnFailure"}))),
 ("a job's podReplacementPolicy is an enum", [], post(JOBS, job(spec={"podReplacementPolicy": "Sometimes"}))),
]

# empty objects: what kube's Go validation says where the schema has nothing to require
CASES += [
 ("a cron job without a spec is refused", [], post(CJ, {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "cj"}})),
 ("an autoscaler without a spec is refused", [], post(HPA, {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h"}})),
 ("a v1 autoscaler without a spec is refused", [], post(HPA1, {"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h"}})),
 ("a budget without a spec is created", [], post(PDB, {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "p"}})),
 ("a cron job's template metadata labels are checked", [], post(CJ, cj(job={"template": {"metadata": {"labels": {"bad key!": "v"}}, "spec": {"containers": [{"name": "c", "image": "i"}], "restartPolicy": "Never"}}}))),
]

# Deployments share the int-or-percent check (and its Go printing) with budgets
DEP = "/apis/apps/v1/namespaces/val/deployments"
CASES += [
 ("a deployment's rolling update percentages print as kube's", [], post(DEP, {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}, "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "abc", "maxUnavailable": "150%"}}}})),
]
