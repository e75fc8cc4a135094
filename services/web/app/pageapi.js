// @ts-check
// The interface between the generic table page (table.js) and a title's page module
// (META.web_module, e.g. app/chicago/page.js). Types only.
//
// table.js owns the connection, the legal actions, acting, the header, the turn line, the
// seat controls (hand to a bot, take back), undo, refusals, rematch and the log list. The
// title's module draws everything that needs to know the game: the board and panels, the
// decision at hand, the log's words, the rules summary, and news such as a dividend payout.
//
// A module exports these functions (the optional ones may be left out):
//
//   render(view, ctx, slots)     draw the board into slots.main (under the action panel) and
//                                the title's panels into slots.side; called after every change.
//                                It may keep elements in the slots between calls.
//   actionPanel(view, ctx)       the seat's decision: controls built from ctx.legal only, and
//                                the facts the decision needs, beside it. Acts via ctx.on.act.
//   mapTargets(view, legal, ui)  the board items a click acts on now (hex id -> label, action);
//                                table.js passes them back to render as ctx.targets, and when
//                                they change scrolls the first element of slots.main with class
//                                `target` into sight (inside its closest `[data-scroll]` box,
//                                then on the page, clear of the sticky action panel).
//   describeEvent(view, entry)   one line of text for an entry of view.log.
//   milestones                   Set of log entry kinds drawn as section headings.
//   rules(view)                  the rules summary panel (view may be null before the first one).
//   turnInfo(view)?              "Round 2 · build": where the game is, for the turn line.
//   news(view, ctx)?             something that just happened and matters to the player (a
//                                dividend summary), shown above the action panel; null if none.
//                                A "dismiss" button calls ctx.on.dismiss(key).
//   result(view, ctx)?           the result panel (ranking, chart); the generic one otherwise.
//   playerName(view, seat)?      a seat's name as the view has it.
//   logLine(before, after, u)?   for a title whose view holds no `log`: one line for the update
//                                u = {seat, action, seq} that turned `before` into `after`
//                                (null for none); table.js keeps them for this tab.
//   endReason(reason)?           the result's reason in words, for the turn line ("the bank broke").
//   trackValues(view)?           numbers per seat to keep with each such line (a player's value,
//                                for the end screen's chart); they come back in ctx.seen.

/**
 * @typedef {import("../sdk/roundhouse.js").LegalAction} LegalAction
 * @typedef {import("../sdk/roundhouse.js").Action} Action
 * @typedef {import("../sdk/roundhouse.js").SeatInfo} SeatInfo
 * @typedef {import("../sdk/roundhouse.js").TitleMeta} TitleMeta
 * @typedef {import("./dom.js").Child} Child
 *
 * @typedef {{label: string, action: Action, kind?: string}} Target  a board item a click acts on
 *
 * @typedef {object} PanelState  what the player has picked in the decision at hand (cleared at every new seq)
 * @property {Record<string, any>} picks   fields picked so far (a company, a trie path), by name
 * @property {number | null} amount        the amount being typed or stepped
 * @property {string | null} message       the last refusal, in words
 * @property {boolean} pending             an action is on its way
 * @property {boolean} canUndo             the server would accept this seat's undo now (GET /legal `undo`)
 * @property {string | null} dismissed     the news key the player closed (kept across seqs)
 *
 * @typedef {object} PanelHandlers
 * @property {(action: Action) => void} act           submit an action
 * @property {(patch: Partial<PanelState>) => void} update   change the picks and redraw
 * @property {(key: string) => void} dismiss          close a news item
 * @property {(action: Action) => Promise<import("../sdk/roundhouse.js").Preview>} preview  what the action would do now
 *                                                    (Engine.preview: a run's revenue), nothing sent to the table's log
 *
 * @typedef {object} PageContext
 * @property {number | null} mySeat          null for a spectator
 * @property {number} seq                    the seq of the view drawn (an answer about an earlier
 *                                           position, a run's preview, is not this one's)
 * @property {SeatInfo[]} seats              kind and level of every seat (GET /api/tables/{t})
 * @property {LegalAction[] | null} legal    the seat's legal actions at the view's seq; null when
 *                                           it is not this seat's turn or they are not loaded yet
 * @property {PanelState} ui
 * @property {PanelHandlers} on
 * @property {Map<string, Target>} targets   the clickable board items (from mapTargets)
 * @property {number} width                  CSS pixels the page has
 * @property {TitleMeta} meta
 * @property {SeenLine[]} seen               the log lines this tab wrote (for titles whose view has no log)
 *
 * @typedef {{seq: number, text: string, seat?: number, values?: number[]}} SeenLine
 *
 * @typedef {{main: HTMLElement, side: HTMLElement}} Slots
 *
 * @typedef {object} TitlePage
 * @property {(view: any, ctx: PageContext, slots: Slots) => void} render
 * @property {(view: any, ctx: PageContext) => Child[]} actionPanel
 * @property {(view: any, legal: LegalAction[], ui: PanelState) => Map<string, Target>} mapTargets
 * @property {(view: any, entry: any) => string} describeEvent
 * @property {Set<string>} milestones
 * @property {(view: any) => Child} rules
 * @property {((view: any) => string) | undefined} [turnInfo]
 * @property {((view: any, ctx: PageContext) => Child) | undefined} [news]
 * @property {((view: any, ctx: PageContext) => Child) | undefined} [result]
 * @property {((view: any, seat: number) => string) | undefined} [playerName]
 * @property {((before: any, after: any, update: {seat: number, action: any, seq: number}) => string | null) | undefined} [logLine]
 * @property {((view: any) => number[] | null) | undefined} [trackValues]
 * @property {((reason: string) => string) | undefined} [endReason]
 */

export {};
