import { ApiProperty } from '@nestjs/swagger';

export class FrontendVariantDto {
  @ApiProperty({ example: 'disabled' })
  name: string;
  @ApiProperty({ example: false })
  enabled: boolean;
}

export class FrontendToggleDto {
  @ApiProperty({ example: 'url.frontend.experimentSwitch' })
  name: string;
  @ApiProperty({ example: true })
  enabled: boolean;
  @ApiProperty({ type: FrontendVariantDto })
  variant: FrontendVariantDto;
}

export class FrontendTogglesDto {
  @ApiProperty({ type: [FrontendToggleDto] })
  toggles: FrontendToggleDto[];
}
