"use client";

import { useRouter } from "next/navigation";
import { useCanEdit } from "@/components/auth/workspace-context";
import { useWorkflowList, useWorkflowMutations } from "./use-workflows";
import { documentFromTemplate, unusedName } from "@/components/templates/template-document";
import { TemplateGallery } from "@/components/templates/template-gallery";

/** The home page's gallery: using a template creates its workflow (a fresh name if taken) and opens it. */
export function HomeTemplates() {
  const router = useRouter();
  const canEdit = useCanEdit();
  const list = useWorkflowList();
  const { create } = useWorkflowMutations();
  if (!canEdit) return null;
  return (
    <div className="mt-10">
      <TemplateGallery
        onUse={async (template) => {
          const name = unusedName(
            template.name,
            (list.data ?? []).map((workflow) => workflow.name),
          );
          const workflow = await create.mutateAsync(await documentFromTemplate(template, name));
          router.push(`/workflows/${workflow.id}`);
        }}
      />
    </div>
  );
}
