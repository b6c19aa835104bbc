/* The console's action forms: build(form) turns one into events of the game record
 * (../shared/spec/game-record.md) and answers {events, label} or {hint} (what is still
 * missing); setContext/adjust show the parts of a form that fit the player and the other fields. */
(function () {
  "use strict";

  const MCS = window.MCS;
  const C = MCS.console;
  const { $, $$, esc, int } = MCS.util;

  /** t: the translator; pname/dname: a player's and a deed's name; player(key): a player's data;
   * game(): the console's picture of the game (players, deeds, deals_paid); dealKeys: where the
   * deal's unbooked ticks are kept, {key(): the table's and its game's key, unsaved: the
   * table's key while its game has no row yet (nothing booked)}. */
  C.createActions = function createActions({ t, pname, dname, player, game, dealKeys }) {
    function hint(key, params) {
      return { hint: t(key, params) };
    }

    const builders = {
      start: () => ({ events: [{ type: "start" }], label: t("label_start") }),
      end: () => ({ events: [{ type: "end" }], label: t("label_end") }),
      on_turn(fd) {
        const p = fd.get("player");
        if (!p) return hint("choose_player");
        return { events: [{ type: "on_turn", player: p }], label: t("label_on_turn", { player: pname(p) }) };
      },
      turn_played(fd) {
        const p = fd.get("player");
        if (!p) return hint("choose_player");
        return { events: [{ type: "turn_played", player: p }], label: t("label_turn_played", { player: pname(p) }) };
      },
      pause(fd) {
        let reason = fd.get("reason") || "";
        if (reason === "other") reason = (fd.get("note") || "").trim();
        const ev = { type: "pause" };
        if (reason) ev.reason = reason;
        return { events: [ev], label: t("label_pause") };
      },
      deal(fd, form) {
        const p = fd.get("player");
        if (!p) return hint("choose_player");
        const picks = dealPicks(form);
        if (!picks.length) return hint("choose_deed");
        for (const [key, deeds] of picks) {
          const left = int(form.dataset.max) - int(form.querySelector(`input[name=player][value="${CSS.escape(key)}"]`).dataset.dealt);
          if (deeds.length > left) return hint("max_deals", { name: pname(key), n: left });
        }
        return {
          events: picks.flatMap(([key, deeds]) => deeds.map((d) => ({ type: "deal", player: key, deed: d }))),
          label: picks.map(([key, deeds]) => t("label_deal", { player: pname(key), deeds: deeds.map(dname).join(", ") })).join("; "),
        };
      },
      buy(fd) {
        const p = fd.get("player");
        const d = fd.get("deed");
        if (!d) return hint("choose_deed");
        return { events: [{ type: "buy", player: p, deed: d }], label: t("label_buy", { player: pname(p), deed: dname(d) }) };
      },
      auction(fd, form) {
        const d = fd.get("deed");
        if (!d) return hint("choose_deed");
        const w = fd.get("winner");
        if (!w) return hint("choose_winner");
        const label = t("label_auction", { deed: dname(d) });
        if (w === "none") return { events: [{ type: "auction", deed: d, winner: null, price: 0 }], label };
        const price = int(fd.get("price"));
        const min = int(form.dataset.minBid) || 0;
        if (price === null) return hint("enter_amount");
        if (price < min) return hint("min_bid", { n: min });
        return { events: [{ type: "auction", deed: d, winner: w, price }], label };
      },
      rent(fd) {
        const p = fd.get("player");
        const d = fd.get("deed");
        if (!d) return hint("choose_deed");
        const info = game().deeds[d];
        const ev = { type: "pay", from: p, to: info.owner, reason: "rent", deed: d };
        let amount = info.rent;
        if (info.kind === "utility") {
          const dice = int(fd.get("dice"));
          if (!dice || dice < 2 || dice > 12) return hint("choose_dice");
          amount = info.rent_dice ? info.rent_dice[String(dice)] : 0;
          ev.dice = dice;
        }
        if (!amount) {
          // Say why: the owner is in jail (and these rules give no rent then), or it is mortgaged.
          const why = { jail: "no_rent_jail", mortgaged: "no_rent_mortgaged" }[info.no_rent];
          return hint(why || "no_rent", { owner: pname(info.owner), deed: dname(d) });
        }
        ev.amount = amount;
        return { events: [ev], label: t("label_rent", { player: pname(p), deed: dname(d) }) };
      },
      pay(fd) {
        const p = fd.get("player");
        const to = fd.get("to") || "bank";
        const amount = int(fd.get("amount"));
        if (!amount || amount < 1) return hint("enter_amount");
        const ev = to === "from_bank" ? { type: "pay", from: "bank", to: p, amount } : { type: "pay", from: p, to, amount };
        const reason = fd.get("reason");
        if (reason) ev.reason = reason;
        return { events: [ev], label: t("label_pay", { player: pname(p), amount }) };
      },
      buildings(fd, form) {
        const p = fd.get("player");
        const now = {};
        const want = {};
        const order = [];
        $$("input[data-level]", form).forEach((input) => {
          if (input.disabled) return;
          const key = input.name.slice("level-".length);
          now[key] = int(input.dataset.level);
          want[key] = int(input.value);
          order.push(key);
        });
        const events = [];
        // Down first, always from the highest street; then up, always on the lowest: evenly.
        for (;;) {
          const down = order.filter((k) => now[k] > want[k]);
          if (!down.length) break;
          const k = down.reduce((a, b) => (now[b] > now[a] ? b : a));
          events.push({ type: "sell_building", deed: k });
          now[k] -= 1;
        }
        for (;;) {
          const up = order.filter((k) => now[k] < want[k]);
          if (!up.length) break;
          const k = up.reduce((a, b) => (now[b] < now[a] ? b : a));
          events.push({ type: "build", deed: k });
          now[k] += 1;
        }
        if (!events.length) return hint("nothing");
        return { events, label: t("label_buildings", { player: pname(p) }) };
      },
      mortgage(fd) {
        const p = fd.get("player");
        const m = fd.getAll("mortgage");
        const u = fd.getAll("unmortgage");
        if (!m.length && !u.length) return hint("choose_deed");
        return {
          events: [...u.map((d) => ({ type: "unmortgage", deed: d })), ...m.map((d) => ({ type: "mortgage", deed: d }))],
          label: t("label_mortgage", { player: pname(p) }),
        };
      },
      trade(fd) {
        const p = fd.get("player");
        const q = fd.get("partner");
        if (!q) return hint("choose_player");
        const give = fd.getAll("give");
        const get = fd.getAll("get");
        const payoff = new Set(fd.getAll("payoff"));
        const cash = int(fd.get("cash")) || 0;
        const payer = fd.get("payer") || "partner";
        if (!give.length && !get.length) return hint("trade_needs_deeds");
        if (cash > 0 && payer === "partner" && !give.length) return hint("cash_for_deeds");
        if (cash > 0 && payer === "player" && !get.length) return hint("cash_for_deeds");
        const events = [];
        const leg = (from, to, deeds, paid) => {
          const ev = { type: "trade", from, to, deeds };
          if (paid) ev.cash = paid;
          const off = deeds.filter((d) => payoff.has(d));
          if (off.length) ev.unmortgage = off;
          return ev;
        };
        if (give.length) events.push(leg(p, q, give, payer === "partner" ? cash : 0));
        if (get.length) events.push(leg(q, p, get, payer === "player" ? cash : 0));
        return { events, label: t("label_trade", { player: pname(p), partner: pname(q) }) };
      },
      jail: (fd) => ({ events: [{ type: "jail", player: fd.get("player") }], label: t("label_jail", { player: pname(fd.get("player")) }) }),
      release: (fd) => ({
        events: [{ type: "release", player: fd.get("player"), fine: fd.get("fine") === "1" }],
        label: t("label_release", { player: pname(fd.get("player")) }),
      }),
      cash(fd) {
        const p = fd.get("player");
        const amount = int(fd.get("amount"));
        if (amount === null || amount < 0) return hint("enter_amount");
        return { events: [{ type: "cash", player: p, amount }], label: t("label_cash", { player: pname(p), amount }) };
      },
      bankrupt(fd) {
        const p = fd.get("player");
        const creditor = fd.get("creditor");
        if (!creditor) return hint("choose_player");
        const ev = { type: "bankrupt", player: p, creditor };
        const payoff = creditor === "bank" ? [] : fd.getAll("payoff");
        if (payoff.length) ev.unmortgage = payoff;
        return { events: [ev], label: t("label_bankrupt", { player: pname(p) }) };
      },
      void(fd) {
        const index = int(fd.get("event"));
        const reason = (fd.get("reason") || "").trim();
        if (!reason) return hint("reason_needed");
        return { events: [{ type: "void", event: index, reason }], label: t("label_void", { index }) };
      },
      count(fd, form) {
        const events = [];
        $$("input[data-cash-for]", form).forEach((input) => {
          const value = int(input.value);
          if (value === null || value < 0) return;
          if (value !== int(input.dataset.tracked)) events.push({ type: "cash", player: input.dataset.cashFor, amount: value });
        });
        if (!events.length) return hint("nothing");
        return { events, label: t("label_count") };
      },
    };

    function build(form) {
      const builder = builders[form.dataset.action];
      if (!builder) return hint("nothing");
      return builder(new FormData(form), form);
    }

    // The deal's answer computed in the browser: who gets which deed, what is paid, cash before
    // and after. A round trip per tapped deed made dealing slow on a hall's Wi-Fi; the server
    // still checks every deal when it is posted (a refusal then shows as a conflict).
    function localDealAnswer(built) {
      const data = game();
      if (!data || !data.players || !data.deeds) return null;
      const cash = {};
      data.players.forEach((p) => { cash[p.key] = p.cash; });
      const before = Object.assign({}, cash);
      const lines = [];
      for (const ev of built.events) {
        const deed = data.deeds[ev.deed];
        if (!deed || deed.owner || !(ev.player in cash)) return null; // let the server say why
        if (data.deals_paid) {
          cash[ev.player] -= deed.price;
          lines.push(t("deal_paid", { player: pname(ev.player), deed: deed.name, amount: deed.price }));
        } else {
          lines.push(t("deal_free", { player: pname(ev.player), deed: deed.name }));
        }
      }
      // (in seat order: numeric keys would come first in an object's own order)
      const rows = data.players.map((p) => p.key).filter((k) => cash[k] !== before[k]).map((k) => {
        const delta = cash[k] - before[k];
        return `<tr><td>${esc(pname(k))}</td><td class="num">${before[k]}</td><td class="num">${delta > 0 ? "+" : ""}${delta}</td><td class="num"><b>${cash[k]}</b></td></tr>`;
      }).join("");
      const table = rows ? `<table class="grid cash-after"><thead><tr><th>${esc(t("cash_head"))}</th><th class="num">${esc(t("before"))}</th><th class="num">${esc(t("change"))}</th><th class="num">${esc(t("after"))}</th></tr></thead><tbody>${rows}</tbody></table>` : "";
      return `<div class="answer-body is-ok" data-ok="1" data-local="1"><ul class="answer-lines">${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>${table}</div>`;
    }

    // ---------------------------------------------------------------- the deal's ticks
    // The deal form shows one player's ticks at a time. The others' are kept here (player key ->
    // deed keys) while the banker switches between players, shown on their tiles and chips, and
    // "Confirm the deal" books them all; they outlive a new fragment (a follow, the clock
    // started) and are forgotten once booked. A switch of player never drops a tick.
    // They outlive the page too (a phone that discarded the tab, a pull to refresh: 12 deeds
    // to tick again, some missed unseen): kept in sessionStorage under the table's and the
    // game's key, read again when the page opens, forgotten once booked or the deal is over.
    const deal = { player: null, picks: new Map(), key: null };

    /** The ticks kept under key: {player, picks: [[player, [deeds]], …]}, or null. */
    function readTicks(key) {
      let kept = null;
      try {
        kept = JSON.parse(sessionStorage.getItem(key) || "null");
      } catch (err) {
        return null;
      }
      if (!kept || !Array.isArray(kept.picks)) return null;
      const picks = kept.picks.filter((pick) => Array.isArray(pick) && typeof pick[0] === "string"
        && Array.isArray(pick[1]) && pick[1].length && pick[1].every((d) => typeof d === "string"));
      return { player: typeof kept.player === "string" ? kept.player : null, picks };
    }

    function forgetTicks(key) {
      try {
        sessionStorage.removeItem(key);
      } catch (err) { /* no storage: nothing kept */ }
    }

    /** The ticks in the page, kept for a reload (none: the key is dropped). */
    function storeTicks() {
      if (!deal.key) return;
      if (!deal.picks.size) {
        forgetTicks(deal.key);
        return;
      }
      try {
        sessionStorage.setItem(deal.key, JSON.stringify({ player: deal.player, picks: [...deal.picks] }));
      } catch (err) { /* storage full or off: the ticks stay in the page */ }
    }

    /** The ticks of the fragment's table and game: the page's first fragment takes those kept
     * for it; the game's first event gives it a row (a new key), the ticks stay (made before,
     * they were kept under the table's "unsaved" key: the same game); a fragment of another
     * game drops the page's ticks. */
    function followGame() {
      const key = dealKeys.key();
      if (key === deal.key) return;
      if (deal.key !== null && deal.key !== dealKeys.unsaved) {
        forgetTicks(deal.key);
        deal.player = null;
        deal.picks.clear();
      } else if (!deal.picks.size) {
        const kept = readTicks(key) || (key !== dealKeys.unsaved ? readTicks(dealKeys.unsaved) : null);
        if (kept) {
          deal.player = kept.player;
          deal.picks = new Map(kept.picks);
        }
      }
      if (key !== dealKeys.unsaved) forgetTicks(dealKeys.unsaved);
      deal.key = key;
    }

    /** The ticks on screen, noted as those of the player they were made for. */
    function keepTicks(form) {
      if (!deal.player) return;
      const ticked = $$("input[name=deed]", form).filter((i) => i.checked).map((i) => i.value);
      if (ticked.length) deal.picks.set(deal.player, ticked);
      else deal.picks.delete(deal.player);
    }

    /** [player, deeds] of every player with ticks, in seat order. */
    function dealPicks(form) {
      const current = (form.querySelector("input[name=player]:checked") || {}).value;
      if (current && current === deal.player) keepTicks(form);
      return $$("input[name=player]", form)
        .map((i) => [i.value, deal.picks.get(i.value) || []])
        .filter(([, deeds]) => deeds.length);
    }

    function ticksWaiting() {
      let n = 0;
      deal.picks.forEach((deeds) => { n += deeds.length; });
      return n;
    }

    /** The kept ticks on the form: the player's own ticked, another player's marked with
     * their seat and name (and not to be tapped for this one), the chips with their count. */
    function paintDeal(form) {
      const ticker = {};
      deal.picks.forEach((deeds, key) => deeds.forEach((d) => { ticker[d] = key; }));
      $$("input[name=player]", form).forEach((input) => {
        input.checked = input.value === deal.player;
        const n = (deal.picks.get(input.value) || []).length;
        const mark = $("[data-ticked]", input.closest("label"));
        if (mark) {
          mark.hidden = !n;
          mark.textContent = n ? `+${n}` : "";
        }
      });
      $$("input[name=deed]", form).forEach((input) => {
        const key = ticker[input.value];
        const other = !!key && key !== deal.player;
        const label = input.closest("label");
        input.checked = !!key && !other;
        label.classList.toggle("is-ticked-other", other);
        let tag = $(".deed-for", label);
        if (other) {
          input.setAttribute("data-ticked-for", key);
          if (!tag) {
            tag = document.createElement("span");
            tag.className = "deed-sub deed-for";
            label.appendChild(tag);
          }
          const p = player(key);
          tag.innerHTML = `<span class="owner-badge">${esc(String(p ? p.seat : ""))}</span> ${esc(pname(key))}`;
        } else {
          input.removeAttribute("data-ticked-for");
          if (tag) tag.remove();
        }
        if (!input.hasAttribute("data-owned")) input.disabled = other || label.classList.contains("is-queued");
      });
    }

    /** The deal was confirmed: its ticks are booked (queued), none is kept any longer (nor
     * for a reload: a reload offers none of them again). */
    function dealBooked() {
      deal.player = null;
      deal.picks.clear();
      storeTicks();
    }

    // ---------------------------------------------------------------- the forms themselves
    function toggle(el, show) {
      el.hidden = !show;
      $$("input, select, textarea", el).forEach((input) => {
        if (!show) {
          input.disabled = true;
          if (input.type === "radio" || input.type === "checkbox") input.checked = false;
        } else if (!input.hasAttribute("data-owned") && !input.hasAttribute("data-done")) {
          input.disabled = false;
        }
      });
    }

    function setContext(form, key, opener) {
      form.dataset.player = key || "";
      const hidden = form.querySelector("input[type=hidden][name=player]");
      if (hidden) hidden.value = key || "";
      $$("[data-player-name]", form).forEach((el) => { el.textContent = pname(key); });
      $$("[data-for]", form).forEach((el) => toggle(el, el.dataset.for === key));
      $$("[data-not-for]", form).forEach((el) => toggle(el, el.dataset.notFor !== key));
      if (opener && opener.dataset.event) {
        form.elements.event.value = opener.dataset.event;
        $$("[data-event-text]", form).forEach((el) => { el.textContent = opener.dataset.eventText || ""; });
      }
      if (form.dataset.action === "cash") {
        const p = player(key);
        form.elements.amount.value = p ? p.cash : "";
      }
      adjust(form);
    }

    // Parts of a form that depend on another field (partner, creditor, utility, no bid).
    function adjust(form, changed) {
      const action = form.dataset.action;
      if (action === "trade") {
        const partner = (form.querySelector("input[name=partner]:checked") || {}).value || "";
        $$("[data-for-partner]", form).forEach((el) => toggle(el, el.dataset.forPartner === partner));
        $$("[data-partner-name]", form).forEach((el) => { el.textContent = partner ? pname(partner) : "…"; });
      } else if (action === "bankrupt") {
        const creditor = (form.querySelector("input[name=creditor]:checked") || {}).value || "";
        const wrap = $("[data-when-creditor-player]", form);
        if (wrap) {
          wrap.hidden = !creditor || creditor === "bank";
          $$("[data-for]", wrap).forEach((el) => toggle(el, !wrap.hidden && el.dataset.for === form.dataset.player));
        }
      } else if (action === "rent") {
        const chosen = form.querySelector("input[name=deed]:checked");
        toggle($("[data-when-utility]", form), !!chosen && chosen.dataset.kind === "utility");
      } else if (action === "auction") {
        const none = (form.querySelector("input[name=winner]:checked") || {}).value === "none";
        const price = form.elements.price;
        price.disabled = none;
        if (none) price.value = "";
      } else if (action === "deal" && changed && (changed.name === "player" || changed.name === "deed")) {
        keepTicks(form); // (a new player: the ticks on screen are still the last one's)
        if (changed.name === "player") deal.player = changed.value;
        storeTicks();
        paintDeal(form);
      } else if (action === "start") {
        // "Only 0 of 12 dealt" while deeds are ticked on the deal form: say that they wait.
        const note = $("[data-deal-unbooked]", form);
        const n = ticksWaiting();
        if (note) {
          note.hidden = !n;
          note.textContent = n ? t(n === 1 ? "deal_unbooked_one" : "deal_unbooked_many", { n }) : "";
        }
      }
    }

    function pickAuctionStep(form, used) {
      const steps = $$("[data-step-deed]", form);
      const current = steps.find((s) => !used.has(s.dataset.stepDeed));
      steps.forEach((s) => { s.hidden = s !== current; });
      form.elements.deed.value = current ? current.dataset.stepDeed : "";
      $$("[data-queue-deed]").forEach((el) => el.classList.toggle("is-queued", used.has(el.dataset.queueDeed)));
      $(".btn-confirm", form).hidden = !current;
    }

    /** A new fragment's inline forms; answers the deal form if it shows kept ticks (its
     * answer is to be given again), else null. queued: the deeds a queued action uses. */
    function setupInlineForms(queued) {
      followGame();
      const form = $(".deal-form");
      if (!form) {
        dealBooked(); // the deal is over
        return null;
      }
      const byValue = (name, value) => form.querySelector(`input[name=${name}][value="${CSS.escape(value)}"]`);
      const open = (key) => { const input = byValue("player", key); return !!input && !input.disabled; };
      // A new fragment: a deed dealt meanwhile (another device) or waiting in the queue to be
      // sent, or a player dealt in full takes no kept tick any more; every other tick stays.
      deal.picks.forEach((deeds, key) => {
        const free = deeds.filter((d) => {
          const input = byValue("deed", d);
          return !!input && !input.hasAttribute("data-owned") && !(queued && queued.has(d));
        });
        if (open(key) && free.length) deal.picks.set(key, free);
        else deal.picks.delete(key);
      });
      if (!deal.player || !open(deal.player)) {
        const next = form.querySelector("input[name=player]:checked") || form.querySelector("input[name=player]:not(:disabled)");
        deal.player = next ? next.value : null;
      }
      storeTicks();
      paintDeal(form);
      return deal.picks.size ? form : null;
    }

    return { build, localDealAnswer, setContext, adjust, pickAuctionStep, setupInlineForms, dealBooked };
  };
})();
