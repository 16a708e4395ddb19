/**
 * "Start nothing new here." A failure stops its own scope (and the scopes inside it); a response
 * block, a cancellation or the run timeout stop the run's root token, which every token inherits.
 */
export class StopToken {
  private stoppedHere = false;

  constructor(private readonly parent: StopToken | null = null) {}

  stop(): void {
    this.stoppedHere = true;
  }

  get stopped(): boolean {
    return this.stoppedHere || (this.parent?.stopped ?? false);
  }

  child(): StopToken {
    return new StopToken(this);
  }
}
