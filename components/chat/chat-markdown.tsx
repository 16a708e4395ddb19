import Markdown, { defaultUrlTransform } from "react-markdown";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";

/**
 * A reply's markdown, safe to show whatever a model (or a visitor who steered it) wrote: raw HTML
 * is never parsed (react-markdown leaves `<script>` as text), links keep only http, https, mailto
 * and relative URLs (a `javascript:` link keeps its text and loses its href), and rehype-sanitize's
 * GitHub schema strips anything else, event handlers included. Images are not shown at all: a reply
 * steered into `![](https://elsewhere/?q=<the conversation>)` would send it to another site as the
 * page loads. Code blocks keep their language class.
 */
const schema = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter((tag) => tag !== "img"),
  protocols: { ...defaultSchema.protocols, href: ["http", "https", "mailto"] },
};

/** The URL when it is http(s), mailto or relative; otherwise none, so the link has no href at all. */
function safeUrl(url: string): string | undefined {
  const kept = defaultUrlTransform(url);
  return kept && /^(https?:|mailto:|[/#?.]|[^:]*$)/i.test(kept) ? kept : undefined;
}

export function ChatMarkdown({ text }: { text: string }) {
  return (
    <div className="chat-markdown text-sm leading-relaxed break-words" data-testid="chat-markdown">
      <Markdown
        rehypePlugins={[[rehypeSanitize, schema]]}
        urlTransform={safeUrl}
        components={{
          a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
        }}
      >
        {text}
      </Markdown>
    </div>
  );
}
