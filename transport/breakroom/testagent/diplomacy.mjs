// The test agent's Diplomacy (diplomacy-0.1), written from what the wire gives a seat and the
// rules page (/rules/diplomacy): your_turn's legal_actions (the step's units, retreats, build
// sites or removals, the press recipients) and visible_state (every power's units, the centres'
// owners, and `options`, the places each own unit can move to without a convoy). Orders are
// text in the grammar of the rules page ("A vie - gal", "F tri S A vie - gal",
// "F nth C A yor - bel", "A yor - bel via convoy", "F tri R alb", "B A bud", "D F tri").
//
// Map facts. Adjacency comes from the wire (`options`) and nothing else. The one fact the wire
// does not give is which provinces are seas, which a convoy needs (only a fleet at sea convoys).
// An independent agent knows the standard board, so this one carries its 19 sea names (the
// rulebook map; the type column of the DATC data's provinces.csv), and no adjacency: a convoy is
// a fleet at sea, one of our armies on a coast in that fleet's options, and a coast in the same
// options as the destination. If the door still refuses an order set (illegal_move, whose detail
// names the first bad order as `order N "…": why`), the agent drops that order and sends the set
// again before the deadline.

export const SEAS = new Set(['adr', 'aeg', 'bal', 'bar', 'bla', 'bot', 'eas', 'eng', 'hel', 'ion',
  'iri', 'lyo', 'mao', 'nao', 'nth', 'nwg', 'ska', 'tys', 'wes']);

const prov = (place) => place.split('/')[0];
// The province of a unit as the wire names it ("F stp/sc" -> "stp").
const unitProv = (unit) => prov(unit.slice(2));

// A small deterministic draw (FNV-1a over the key), so one key plays one way given one state.
function draw(key, n) {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) { h ^= key.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return n > 0 ? h % n : 0;
}

// The agent's Diplomacy player: plan(yt) gives the move for a your_turn (without the envelope),
// fix(orders, detail) the set with the refused order dropped. stats counts what it did.
export class DiplomacyPlayer {
  constructor(pubkey) {
    this.pubkey = pubkey;
    this.pressSent = new Map(); // "phase/press_round" -> messages sent in that press turn
    this.stats = { press_private: 0, press_broadcast: 0, press_done: 0, order_sets: 0, moves: 0, holds: 0,
      supports: 0, convoys: 0, convoyed_moves: 0, retreats: 0, disbands: 0, builds: 0, removals: 0,
      refused: 0, fixed: 0, sent: [] };
  }

  plan(yt) {
    const vs = yt.visible_state;
    const legal = yt.legal_actions;
    if (legal.some((a) => a.action === 'done')) return this.press(vs, legal);
    const act = legal.find((a) => a.action === 'orders');
    if (!act) throw new Error(`no orders or press action in ${JSON.stringify(legal)}`);
    this.stats.order_sets++;
    let orders;
    if (act.units && act.removals === undefined) orders = this.movement(vs, act);
    else if (act.retreats) orders = this.retreat(act);
    else if (act.builds !== undefined) orders = this.build(vs, act);
    else if (act.removals !== undefined) orders = this.remove(vs, act);
    else throw new Error(`orders step not understood: ${JSON.stringify(act)}`);
    return { action: 'orders', orders };
  }

  // fix drops the order the door's detail names (`order N "…": …`), or every order when the
  // detail names none, and says what it dropped.
  fix(orders, detail) {
    this.stats.refused++;
    const m = /^order (\d+) /.exec(detail ?? '');
    const i = m ? Number(m[1]) - 1 : -1;
    if (i < 0 || i >= orders.length) return [];
    this.stats.fixed++;
    return orders.filter((_, k) => k !== i);
  }

  // A press turn: 0 to 3 messages (drawn per turn), each to the power whose units are nearest
  // ours (our units' options reach them), about the place between us; then done.
  press(vs, legal) {
    const key = `${vs.phase}/${vs.press_round}`;
    const sent = this.pressSent.get(key) ?? 0;
    const want = draw(`${this.pubkey}/${key}`, 4);
    const send = legal.find((a) => a.action === 'send');
    if (sent >= want || !send || !send.recipients?.length) {
      this.stats.press_done++;
      return { action: 'done' };
    }
    this.pressSent.set(key, sent + 1);
    const max = send.max_message_chars ?? 500;
    const seatPower = new Map(vs.powers.map((p) => [p.seat, p.power]));
    const mine = new Set(Object.values(vs.options ?? {}).flat().map(prov));
    const near = (seat) => (vs.units[seatPower.get(seat)] ?? []).filter((u) => mine.has(unitProv(u))).map(unitProv);
    const ranked = [...send.recipients].sort((a, b) => near(b).length - near(a).length || a - b);
    if (sent === 1 && vs.press_round === 1 && draw(`${this.pubkey}/${key}/b`, 3) === 0) {
      const text = `${vs.power} to all: ${vs.phase}, I hold ${vs.units[vs.power]?.length ?? 0} units and want quiet borders.`.slice(0, max);
      this.stats.press_broadcast++;
      return { action: 'broadcast', message: text };
    }
    const to = ranked[sent % ranked.length];
    const places = near(to);
    const text = (places.length
      ? `${vs.power} to ${seatPower.get(to)}: in ${vs.phase} I will stay out of ${places.join(', ')} if you stay out of my centres.`
      : `${vs.power} to ${seatPower.get(to)}: nothing of ours touches in ${vs.phase}; shall we keep it so?`).slice(0, max);
    this.stats.press_private++;
    this.stats.sent.push({ to, text });
    return { action: 'send', recipient: to, message: text };
  }

  // Movement: one convoy when a fleet at sea and an army beside it allow, then each unit moves
  // to a centre we do not own when one is in its options and no unit of ours goes there,
  // else supports a move of ours it can reach, else supports an own unit in place, else
  // moves somewhere free one time in two, else holds.
  movement(vs, act) {
    const me = vs.power;
    const units = act.units;
    const options = vs.options ?? {};
    const owner = new Map();
    for (const [p, cs] of Object.entries(vs.centres ?? {})) for (const c of cs) owner.set(c, p);
    const ours = new Set(units.map(unitProv));
    const taken = new Set(); // provinces an own unit moves into
    const plan = new Map(); // unit -> {order, dest (province, moves only)}
    const worth = (place) => {
      const p = prov(place);
      if (!owner.has(p) || owner.get(p) === me) return 0;
      return owner.get(p) === 'neutral' ? 3 : 2;
    };
    const key = (u) => `${this.pubkey}/${vs.phase}/${u}`;

    // A convoy: fleet F at sea, army A on a coast in F's options, destination D a coast in F's
    // options other than A's, free of our units and not already a target.
    convoy: for (const f of units.filter((u) => u[0] === 'F' && SEAS.has(unitProv(u)))) {
      const reach = (options[f] ?? []).map(prov);
      for (const a of units.filter((u) => u[0] === 'A' && reach.includes(unitProv(u)) && !plan.has(u))) {
        const dests = reach.filter((d) => !SEAS.has(d) && d !== unitProv(a) && !ours.has(d) && !taken.has(d));
        if (!dests.length) continue;
        dests.sort((x, y) => worth(y) - worth(x));
        const best = dests.filter((d) => worth(d) === worth(dests[0]));
        const d = best[draw(key(a) + '/convoy', best.length)];
        plan.set(f, { order: `${f} C ${a} - ${d}` });
        plan.set(a, { order: `${a} - ${d} via convoy`, dest: d });
        taken.add(d);
        this.stats.convoys++;
        this.stats.convoyed_moves++;
        break convoy;
      }
    }
    // Moves to centres.
    for (const u of units) {
      if (plan.has(u)) continue;
      const cands = (options[u] ?? []).filter((p) => worth(p) > 0 && !taken.has(prov(p)) && !ours.has(prov(p)));
      if (!cands.length) continue;
      const top = Math.max(...cands.map(worth));
      const best = cands.filter((p) => worth(p) === top);
      const to = best[draw(key(u) + '/to', best.length)];
      plan.set(u, { order: `${u} - ${to}`, dest: prov(to) });
      taken.add(prov(to));
    }
    // Supports, wandering moves and holds for the rest.
    for (const u of units) {
      if (plan.has(u)) continue;
      const reach = new Set((options[u] ?? []).map(prov));
      const moves = [...plan.entries()].filter(([w, p]) => p.dest && reach.has(p.dest) && unitProv(w) !== p.dest);
      if (moves.length) {
        const [w, p] = moves[draw(key(u) + '/support', moves.length)];
        plan.set(u, { order: `${u} S ${w} - ${p.dest}` });
        this.stats.supports++;
        continue;
      }
      const holders = units.filter((w) => w !== u && reach.has(unitProv(w)) && !plan.get(w)?.dest);
      if (holders.length && draw(key(u) + '/hold-support', 2) === 0) {
        plan.set(u, { order: `${u} S ${holders[draw(key(u) + '/which', holders.length)]}` });
        this.stats.supports++;
        continue;
      }
      const free = (options[u] ?? []).filter((p) => !taken.has(prov(p)) && !ours.has(prov(p)));
      if (free.length && draw(key(u) + '/wander', 2) === 0) {
        const to = free[draw(key(u) + '/where', free.length)];
        plan.set(u, { order: `${u} - ${to}`, dest: prov(to) });
        taken.add(prov(to));
        continue;
      }
      plan.set(u, { order: `${u} H` });
    }
    const orders = units.map((u) => plan.get(u).order);
    for (const o of orders) {
      if (/ - /.test(o) && !/ S /.test(o) && !/ C /.test(o)) this.stats.moves++;
      else if (/ H$/.test(o)) this.stats.holds++;
    }
    return orders;
  }

  // Retreats: to a centre we do not own when the list has one, else the first place, else
  // disband.
  retreat(act) {
    return act.retreats.map((r) => {
      if (!r.to.length) { this.stats.disbands++; return `${r.unit} D`; }
      this.stats.retreats++;
      return `${r.unit} R ${r.to[draw(`${this.pubkey}/${r.unit}`, r.to.length)]}`;
    });
  }

  // Builds: as many as allowed, a fleet where one can be built while we have fewer fleets than
  // armies, else an army.
  build(vs, act) {
    const units = vs.units[vs.power] ?? [];
    let fleets = units.filter((u) => u[0] === 'F').length;
    let armies = units.length - fleets;
    const out = [];
    for (const s of act.sites.slice(0, act.builds)) {
      if (s.fleet.length && fleets < armies) { out.push(`B F ${s.fleet[0]}`); fleets++; }
      else { out.push(`B A ${s.province}`); armies++; }
      this.stats.builds++;
    }
    return out;
  }

  // Removals: as many as owed, units off a centre we own first.
  remove(vs, act) {
    const owned = new Set(vs.centres?.[vs.power] ?? []);
    const units = [...act.units].sort((a, b) => Number(owned.has(unitProv(a))) - Number(owned.has(unitProv(b))));
    this.stats.removals += Math.min(act.removals, units.length);
    return units.slice(0, act.removals).map((u) => `D ${u}`);
  }

  // probe is an order set the door must refuse (a fleet sent to a place outside its options,
  // which the door refuses whatever others order), for showing the fix: the refused order first,
  // then the planned set.
  probe(vs, orders) {
    const options = vs.options ?? {};
    const fleets = Object.keys(options).filter((u) => u[0] === 'F');
    if (!fleets.length) return null;
    const f = fleets[0];
    const near = new Set([unitProv(f), ...(options[f] ?? []).map(prov)]);
    const far = Object.values(options).flat().map(prov).find((p) => !near.has(p));
    if (!far) return null;
    return [`${f} - ${far}`, ...orders.filter((o) => !o.startsWith(`${f} `))];
  }
}
