// The game tree the page holds: every move tried, each position's first
// child its main continuation, the others variations (patchsolve.rules.tree.GameTree
// on the server, whose flat JSON form this reads and writes). Nothing here
// talks to the server: moves are added after the server has accepted them.

export class Tree {
  constructor(start = null) {
    this.start = start;                 // position text, or null for the built-in start
    this.nodes = new Map([[0, { id: 0, move: null, parent: null, children: [], mover: null }]]);
    this.nextId = 1;
  }

  node(id) { return this.nodes.get(id); }
  has(id) { return this.nodes.has(id); }

  childByMove(id, move) {
    const found = this.node(id).children.find((c) => this.node(c).move === move);
    return found === undefined ? null : found;
  }

  // the child reached by `move` (text as the server writes it); a new one after the others
  add(parentId, move, mover) {
    const old = this.childByMove(parentId, move);
    if (old !== null) return old;
    const id = this.nextId++;
    this.nodes.set(id, { id, move, parent: parentId, children: [], mover });
    this.node(parentId).children.push(id);
    return id;
  }

  // the nodes from the first move down to `id`
  line(id) {
    const out = [];
    for (let n = this.node(id); n.parent !== null; n = this.node(n.parent)) out.push(n.id);
    return out.reverse();
  }

  moves(id) { return this.line(id).map((k) => this.node(k).move); }
  ply(id) { return this.line(id).length; }

  isMain(id) {
    for (let n = this.node(id); n.parent !== null; n = this.node(n.parent)) {
      if (this.node(n.parent).children[0] !== n.id) return false;
    }
    return true;
  }

  // the end of the line through `id` (following main continuations)
  lineEnd(id) {
    let n = this.node(id);
    while (n.children.length) n = this.node(n.children[0]);
    return n.id;
  }

  mainLine() { return [0, ...this.line(this.lineEnd(0))]; }

  // the variation holding `id` becomes its parent line's main continuation
  promote(id) {
    let n = this.node(id);
    while (n.parent !== null && this.node(n.parent).children[0] === n.id) n = this.node(n.parent);
    if (n.parent === null) return false;
    const siblings = this.node(n.parent).children;
    siblings.splice(siblings.indexOf(n.id), 1);
    siblings.unshift(n.id);
    return true;
  }

  // the moves from `id` on (counting it)
  size(id) {
    let count = 0;
    const stack = [id];
    while (stack.length) { const n = this.node(stack.pop()); count += 1; stack.push(...n.children); }
    return count;
  }

  remove(id) {
    const n = this.node(id);
    if (n.parent === null) return 0;
    const count = this.size(id);
    const siblings = this.node(n.parent).children;
    siblings.splice(siblings.indexOf(id), 1);
    const stack = [id];
    while (stack.length) { const k = stack.pop(); stack.push(...this.node(k).children); this.nodes.delete(k); }
    return count;
  }

  // GameTree.to_dict's form: every node after its parent, 0 the start
  toDict() {
    const index = new Map([[0, 0]]);
    const nodes = [];
    const stack = [...this.node(0).children].reverse();
    while (stack.length) {
      const n = this.node(stack.pop());
      index.set(n.id, nodes.length + 1);
      nodes.push({ parent: index.get(n.parent), move: n.move });
      stack.push(...[...n.children].reverse());
    }
    return { start: this.start, nodes };
  }

  static fromDict(d) {
    const tree = new Tree(d.start);
    const ids = [0];
    for (const item of d.nodes) ids.push(tree.add(ids[item.parent], item.move, item.player ?? null));
    return tree;
  }
}
