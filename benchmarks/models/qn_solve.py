"""Solves one queueing network with LINE (PyPI line-solver, its MVA solver).

stdin:  {"name", "classes": [{"name", "arrivalRate"} | {"name", "population", "thinkTime"}],
         "stations": [{"name", "servers", "demands": {class: seconds per job}}],
         "cpu": {"cores", "outside": {class: seconds}}    (optional: the shared-CPU model below)}
stdout: {"solver", "stations": {station: {class: {"util", "respT", "qLen", "tput"}}},
         with "cpu": {"stretch", "util", "saturation": {"scale", "station"}} when "cpu" was given}

Shared CPU (two-level model in the spirit of Menasce & Almeida's software/hardware contention):
every station is a software server (a Node event loop, a PostgreSQL backend) whose work runs on
the machine's cores. Level 1: for each station, the cores are one open `cores`-server PS
station carrying the CPU load of everyone else (the other stations, the load generator, and
(m-1)/m of its own load when it has m servers: a single event loop never competes with itself
for a core) plus a probe job; the probe's response/demand ratio is the stretch this station's
CPU-seconds suffer. Level 2 solves the stations with their demands times their stretch: a
request holds its process while it waits for a core. Both levels are LINE's exact open MVA
(M/M/c per station). Saturation is where the first station (or the cores) reaches 100 % at the
stretched demands, found by bisection on the arrival rates.
"""
import contextlib
import json
import sys

from line_solver import MVA, ClosedClass, Delay, Exp, Network, OpenClass, Queue, SchedStrategy, Sink, Source


def build(spec):
    model = Network(spec["name"])
    closed = all("population" in c for c in spec["classes"])
    if closed:
        think = Delay(model, "think")
        source = sink = think
    else:
        source, sink = Source(model, "source"), Sink(model, "sink")
    stations = []
    for s in spec["stations"]:
        queue = Queue(model, s["name"], SchedStrategy.PS)
        queue.setNumberOfServers(int(s["servers"]))
        stations.append((s, queue))
    classes = []
    for c in spec["classes"]:
        if closed:
            job = ClosedClass(model, c["name"], int(c["population"]), think)
            think.setService(job, Exp(1.0 / float(c["thinkTime"])))
        else:
            job = OpenClass(model, c["name"])
            source.setArrival(job, Exp(float(c["arrivalRate"])))
        route = [source]
        for s, queue in stations:
            demand = float(s["demands"].get(c["name"], 0))
            if demand > 0:
                queue.setService(job, Exp(1.0 / demand))
                route.append(queue)
        if not closed:
            route.append(sink)
        classes.append((job, route))
    routing = model.init_routing_matrix()
    for job, route in classes:
        hops = route + [route[0]] if closed else route
        for a, b in zip(hops, hops[1:]):
            routing.set(job, job, a, b, 1.0)
    model.link(routing)
    return model


def solve(spec):
    model = build(spec)
    # LINE prints a banner and the table on stdout: keep stdout for our JSON only.
    with contextlib.redirect_stdout(sys.stderr):
        table = MVA(model).getAvgTable()
    out = {}
    for row in table.to_dict("records"):
        station, job = str(row["Station"]), str(row["JobClass"])
        if station in ("source", "sink", "think"):
            continue
        out.setdefault(station, {})[job] = {
            "util": float(row["Util"]),
            "respT": float(row["RespT"]),
            "qLen": float(row["QLen"]),
            "tput": float(row["Tput"]),
        }
    return {"solver": "line-solver MVA", "stations": out}


PROBE = "probe"
PROBE_RATE = 1e-6


def rates(spec, scale):
    return {c["name"]: float(c["arrivalRate"]) * scale for c in spec["classes"]}


def cpu_load(spec, scale, share_of):
    """Busy cores of the given load: the load generator plus share_of(station) of each station's."""
    r = rates(spec, scale)
    load = sum(r.get(k, 0) * float(d) for k, d in spec["cpu"].get("outside", {}).items())
    for s in spec["stations"]:
        load += share_of(s) * sum(r.get(k, 0) * float(d) for k, d in s["demands"].items())
    return load


def stretch_of(spec, scale, station):
    """CPU response / CPU demand for this station's work, against everyone else's load on the cores."""
    cores = spec["cpu"]["cores"]
    own = lambda s: (s["servers"] - 1) / s["servers"] if s is station else 1.0
    background = cpu_load(spec, scale, own)
    if background >= cores:
        return float("inf")
    classes, demands = [{"name": PROBE, "arrivalRate": PROBE_RATE}], {PROBE: 1.0}
    if background > 0:
        classes.append({"name": "background", "arrivalRate": background})
        demands["background"] = 1.0
    solved = solve({"name": "cpu-" + station["name"], "classes": classes, "stations": [{"name": "cpu", "servers": cores, "demands": demands}]})
    return solved["stations"]["cpu"][PROBE]["respT"]


def utilisations(spec, scale):
    """Busy share of each station at its stretched demands (utilisation law), and of the cores."""
    r = rates(spec, scale)
    out = {"cpu": cpu_load(spec, scale, lambda s: 1.0) / spec["cpu"]["cores"]}
    stretch = {}
    for s in spec["stations"]:
        stretch[s["name"]] = stretch_of(spec, scale, s)
        out[s["name"]] = stretch[s["name"]] * sum(r.get(k, 0) * float(d) for k, d in s["demands"].items()) / s["servers"]
    return out, stretch


def busiest(spec, scale):
    u, _ = utilisations(spec, scale)
    name = max(u, key=u.get)
    return name, u[name]


def saturation(spec):
    """Largest scale of the arrival rates at which every station stays below 100 % (bisection)."""
    low, high = 0.0, 1.0
    while busiest(spec, high)[1] < 1:
        low, high = high, high * 2
    for _ in range(40):
        mid = (low + high) / 2
        if busiest(spec, mid)[1] < 1:
            low = mid
        else:
            high = mid
    return {"scale": low, "station": busiest(spec, high)[0]}


def solve_with_cpu(spec):
    with contextlib.redirect_stdout(sys.stderr):
        sat = saturation(spec)
        util, stretch = utilisations(spec, 1.0)
        result = {"solver": "line-solver MVA, two-level (shared CPU)", "stations": {}}
        if max(util.values()) < 1:
            stretched = [dict(s, demands={k: float(d) * stretch[s["name"]] for k, d in s["demands"].items()}) for s in spec["stations"]]
            result["stations"] = solve(dict(spec, stations=stretched))["stations"]
    result["cpu"] = {"stretch": stretch, "util": util, "saturation": sat}
    return result


if __name__ == "__main__":
    spec = json.load(sys.stdin)
    json.dump(solve_with_cpu(spec) if "cpu" in spec else solve(spec), sys.stdout)
