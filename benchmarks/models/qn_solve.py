"""Solves one open multi-class queueing network with LINE (PyPI line-solver, its MVA solver).

stdin:  {"name", "classes": [{"name", "arrivalRate"} | {"name", "population", "thinkTime"}],
         "stations": [{"name", "servers", "demands": {class: seconds per job}}]}
stdout: {"solver", "stations": {station: {class: {"util", "respT", "qLen", "tput"}}}}

Open classes (arrivalRate) or closed ones (population, thinkTime s at a delay station), not
both in one network. Every class visits the stations with a positive demand once, in the listed order. The network
must be stable (every station below 100 % utilisation); the caller checks that first.
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


if __name__ == "__main__":
    json.dump(solve(json.load(sys.stdin)), sys.stdout)
