import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { UtmTemplateEntity } from './utm-template.entity';
import { UtmTemplateService } from './utm-template.service';
import { UtmTemplatesController } from './utm-templates.controller';

/** UTM templates (CONTRACT "Marketing links", bullet "UTM"): `/api/utm-templates`. */
@Module({
  imports: [TypeOrmModule.forFeature([UtmTemplateEntity]), AccessModule],
  controllers: [UtmTemplatesController],
  providers: [UtmTemplateService],
})
export class UtmModule {}
