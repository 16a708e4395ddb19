import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { ChatMarkdown } from "./chat-markdown";

const html = (text: string) => renderToStaticMarkup(<ChatMarkdown text={text} />);

describe("ChatMarkdown", () => {
  it("renders markdown and code blocks with their language", () => {
    const out = html("Some **bold** text.\n\n```ts\nconst answer = 1 < 2;\n```\n\nand `inline`.");
    expect(out).toContain("<strong>bold</strong>");
    expect(out).toContain('<pre><code class="language-ts">const answer = 1 &lt; 2;\n</code></pre>');
    expect(out).toContain("<code>inline</code>");
  });

  it("never makes a script element: a <script> stays text", () => {
    const out = html("Hello <script>alert(1)</script> world\n\n<script>alert(2)</script>");
    expect(out).not.toMatch(/<script/i);
  });

  it("empties javascript: (and data:, vbscript:) links and keeps https ones", () => {
    const out = html(
      "[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z](data:text/html,<b>) [v](vbscript:msgbox) [ok](https://example.com/a?b=1)",
    );
    expect(out).not.toMatch(/javascript:|data:|vbscript:/i);
    expect(out).toContain('href="https://example.com/a?b=1"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
    expect(out).toContain('<a target="_blank" rel="noopener noreferrer nofollow">x</a>');
  });

  it("makes no event handler: <img onerror> and friends are not elements", () => {
    const out = html(
      '<img src=x onerror="alert(1)"> <a href="#" onclick="alert(1)">c</a> ![i](https://example.com/i.png "t")',
    );
    expect(out).not.toMatch(/<[^>]+\son\w+=/i);
    expect(out).not.toMatch(/<img[^>]*src="x"/);
  });

  it("shows no image, so a steered reply cannot send the conversation to another site as it loads", () => {
    const out = html("Here: ![chart](https://elsewhere.example/c.png?q=secret%20notes)");
    expect(out).not.toContain("<img");
    expect(out).not.toContain("elsewhere.example");
  });
});
