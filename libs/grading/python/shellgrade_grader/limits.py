"""Resource limits of graders and student scripts, passed by the service as SG_LIMITS."""
import resource

#: Order of the values in SG_LIMITS ("cpu:fsize:nproc:as:nofile").
FIELDS = ("cpu", "fsize", "nproc", "as", "nofile")


def parse_limits(text: str) -> "dict[str, int]":
    if not text:
        return {}
    return dict(zip(FIELDS, (resource.RLIM_INFINITY if v == "unlimited" else int(v) for v in text.split(":"))))


def _hard_capped(which: int, value: int) -> int:
    """"As high as allowed" for unlimited: raising a hard limit needs CAP_SYS_RESOURCE."""
    return resource.getrlimit(which)[1] if value == resource.RLIM_INFINITY else value


def apply_limits(limits: "dict[str, int]") -> None:
    """setrlimit on this process (children inherit). Soft CPU < hard: SIGXCPU names the cause."""
    if "cpu" in limits:
        resource.setrlimit(resource.RLIMIT_CPU, (limits["cpu"], limits["cpu"] + 1))
    for key, which in (("fsize", resource.RLIMIT_FSIZE), ("nproc", resource.RLIMIT_NPROC),
                       ("as", resource.RLIMIT_AS), ("nofile", resource.RLIMIT_NOFILE)):
        if key in limits:
            value = _hard_capped(which, limits[key])
            resource.setrlimit(which, (value, value))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
