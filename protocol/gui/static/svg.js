// SVG elements made by the page itself (the overlays over the server's
// picture, the review's graph): one way to make an element and write a number.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** A new SVG element with its attributes (numbers written by fmt), appended to parent if given. */
export function el(name, attributes = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) node.setAttribute(key, typeof value === "number" ? fmt(value) : value);
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** A number as an attribute: at most two decimals, no trailing zeros, never "-0". */
export function fmt(value) {
  const text = value.toFixed(2).replace(/\.?0+$/, "");
  return text === "-0" || text === "" ? "0" : text;
}
