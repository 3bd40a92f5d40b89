"""The dollar model of docs/scale.md, from the MEASURE lines of a measure run (extrapolated).

usage: python3 benches/cost_model.py [--measured-lists N] MEASURE_OUTPUT...
where each file is the output of
    tests/acceptance/three_hosts.py BIN --measure --interval T   (with moto; see its --help)
Prices: S3 Standard, PUT/LIST $0.005 per 1,000, GET $0.0004 per 1,000; 176 busy hours a month.

The run has 10 agents on each busy host; the model's fleets have 5. So a busy host's PUT-class
requests are split into what its passes cost whatever its agents do and what its agents'
writes add, and the passes' share is spread over the model's agents per host. A busy host
never backs off, so its passes' share is counted, not measured: 3600/T passes an hour, each
listing `live/` and the feed of its one fleet (lake format 3; format 2 also listed the handoffs
and the manifests: 4), plus a listing of `fleets/` every 5 minutes (docs/scale.md, "What one
pass costs"). The idle host D's own rate is lower, since it backs off between the changes it
reads. `--measured-lists N`: the listings per pass of the build that made the MEASURE output
(default 2, this build's), so the agents' own writes are what is left once they are taken
off; the model always counts this build's 2.
"""
import re, sys
PUT, GET = 0.005 / 1000, 0.0004 / 1000
HOURS = 176
MEASURED_AGENTS_PER_HOST = 10
LISTS_PER_PASS = 2  # per fleet, after a fleet's first pass (lake format 3)
args = sys.argv[1:]
measured_lists = LISTS_PER_PASS
if args[:1] == ["--measured-lists"]:
    measured_lists, args = int(args[1]), args[2:]
def parse(f):
    d = {}
    for l in open(f):
        m = re.match(r"MEASURE interval=(\d+) (\S+) put=(\d+) get=(\d+)", l)
        if m:
            d[m.group(2)] = (int(m.group(3)), int(m.group(4)))
    return d
for f in args:
    d = parse(f)
    bp, bg = d["busy_agent_hour"]
    ip, ig = d["idle_host_hour_busy_fleet"]
    qp, qg = d["idle_host_hour_quiet_lake"]
    # GETs a reading host spends per busy agent-hour of writes: D's GETs / 30 agents.
    g_per_reader = ig / 30
    # busy hosts' GETs per agent-hour over the 3 busy hosts (each a reader)
    own = bg - 3 * g_per_reader
    interval = int(re.search(r"MEASURE interval=(\d+)", open(f).read()).group(1))
    lists = 3600 / interval * LISTS_PER_PASS + 12  # a busy host's pass listings an hour (counted)
    measured = 3600 / interval * measured_lists + 12  # the same, in the measured build
    # PUT-class per agent-hour that the agents' writes add beyond the host's passes
    writes = max(bp - measured / MEASURED_AGENTS_PER_HOST, 0)
    print(f, "busy", bp, bg, "idle-busy", ip, ig, "quiet", qp, qg, "g/reader", round(g_per_reader),
          "own", round(own), "writes", round(writes), "pass LISTs/busy host-hour", round(lists))
    for agents, hosts, readers_all, readers_own in ((100, 20, 20, 20), (1000, 200, 200, 40), (10000, 2000, 2000, 40)):
        put = writes + lists / (agents / hosts)
        for label, r in (("all", readers_all), ("own", readers_own)):
            get = own + g_per_reader * r
            usd = HOURS * (put * PUT + get * GET)
            print(f"  {agents} agents, {label} mirroring ({r} readers): {put:.0f} PUT + {get/1000:.1f}k GET per agent-hour,"
                  f" ${usd:.2f}/agent-month (PUT ${HOURS*put*PUT:.2f} + GET ${HOURS*get*GET:.2f}), ${usd*agents:,.0f}/month")
    day = 24 * (qp * PUT + qg * GET)
    print(f"  idle host on a quiet lake: ${day:.3f}/host-day")
    # idle host while 100 agents are busy 8h of the day: D scaled from 30 to 100 agents, quiet the rest
    busy8 = 8 * (ip * PUT + ig * 100 / 30 * GET) + 16 * (qp * PUT + qg * GET)
    print(f"  idle host beside 100 agents busy 8 h/day: ${busy8:.3f}/host-day")
